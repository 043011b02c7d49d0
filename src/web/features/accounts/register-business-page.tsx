import { AuthLayout } from './auth-layout';
import { RegisterForm } from './register-form';

export default function RegisterBusinessPage() {
  return (
    <AuthLayout
      title="Register your business"
      subtitle="Design gift cards, sell them, and withdraw the money to your bank."
    >
      <RegisterForm role="business" />
    </AuthLayout>
  );
}
