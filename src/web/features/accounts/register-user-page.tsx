import { AuthLayout } from './auth-layout';
import { RegisterForm } from './register-form';

export default function RegisterUserPage() {
  return (
    <AuthLayout
      title="Create your account"
      subtitle="Buy gift cards from any business and shop at your favourite store."
    >
      <RegisterForm role="user" />
    </AuthLayout>
  );
}
