import { useSearchParams } from 'react-router';
import { safeNextPath } from '../../lib/next-path';
import { AuthLayout } from './auth-layout';
import { RegisterForm } from './register-form';

export default function RegisterUserPage() {
  const [params] = useSearchParams();
  const forGift = safeNextPath(params.get('next'))?.startsWith('/gifts/') ?? false;
  return (
    <AuthLayout
      title="Create your account"
      subtitle={
        forGift
          ? 'Create a free account to accept your gift card. After you log in, you come back to it.'
          : 'Buy gift cards from any business and shop at your favourite store.'
      }
    >
      <RegisterForm role="user" />
    </AuthLayout>
  );
}
