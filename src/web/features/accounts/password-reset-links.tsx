import { Link } from 'react-router';
import type { Role } from '../../../shared/accounts/schemas';

const linkClass = 'font-semibold text-brand-700 underline-offset-2 hover:underline';

/** The `role` query or fragment value when it is one, else unknown (both logins are offered then). */
export function roleFrom(value: string | null): Role | null {
  return value === 'business' || value === 'user' ? value : null;
}

export const loginPath = (role: Role) => (role === 'business' ? '/business/login' : '/login');

/** "Back to log in": the login of the role when known, both otherwise. */
export function BackToLogin({ role, label = 'Back to log in' }: { role: Role | null; label?: string }) {
  if (role) {
    return (
      <Link to={loginPath(role)} className={linkClass}>
        {label}
      </Link>
    );
  }
  return (
    <span className="flex flex-wrap gap-x-4 gap-y-1">
      <Link to="/login" className={linkClass}>
        Log in as a user
      </Link>
      <Link to="/business/login" className={linkClass}>
        Log in as a business
      </Link>
    </span>
  );
}
