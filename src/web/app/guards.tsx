import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useGiftCardStore } from '../lib/store';

/** Seed §2: a signed-in business opening the public area goes to /dashboard, a user to /user-dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const bizClient = useGiftCardStore((s) => s.bizClient);
  const userData = useGiftCardStore((s) => s.userData);
  if (bizClient) return <Navigate to="/dashboard" replace />;
  if (userData) return <Navigate to="/user-dashboard" replace />;
  return children;
}

/** Anyone without the right session reaching a protected screen goes to / (or to their own dashboard). */
export function RequireRole({ role, children }: { role: 'business' | 'user'; children: ReactNode }) {
  const bizClient = useGiftCardStore((s) => s.bizClient);
  const userData = useGiftCardStore((s) => s.userData);
  if (role === 'business' && !bizClient) return <Navigate to={userData ? '/user-dashboard' : '/'} replace />;
  if (role === 'user' && !userData) return <Navigate to={bizClient ? '/dashboard' : '/'} replace />;
  return children;
}
