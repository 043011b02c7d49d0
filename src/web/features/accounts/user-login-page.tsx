import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

export default function UserLoginPage() {
  return (
    <AuthLayout title="Welcome back" subtitle="Log in to buy, keep and send gift cards.">
      <LoginForm role="user" />
    </AuthLayout>
  );
}
