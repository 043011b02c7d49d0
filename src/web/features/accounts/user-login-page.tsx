import { useSearchParams } from 'react-router';
import { safeNextPath } from '../../lib/next-path';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

export default function UserLoginPage() {
  const [params] = useSearchParams();
  const forGift = safeNextPath(params.get('next'))?.startsWith('/gifts/') ?? false;
  return (
    <AuthLayout
      title="Welcome back"
      subtitle={
        forGift
          ? 'Log in to accept your gift card. You come back to it once you are in.'
          : 'Log in to buy, keep and send gift cards.'
      }
    >
      <LoginForm role="user" />
    </AuthLayout>
  );
}
