import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

export default function BusinessLoginPage() {
  return (
    <AuthLayout title="Business login" subtitle="Log in to sell gift cards and manage your wallet.">
      <LoginForm role="business" />
    </AuthLayout>
  );
}
