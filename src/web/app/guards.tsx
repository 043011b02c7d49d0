import type { ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { safeNextPath } from '../lib/next-path';
import { useGiftCardStore } from '../lib/store';

/**
 * Seed §2: a signed-in business opening the public area goes to /dashboard, a user to /user-dashboard —
 * unless the page was opened with a safe `?next=` (a gift's link sent them to log in): then back there.
 */
export function PublicOnly({ children }: { children: ReactNode }) {
  const bizClient = useGiftCardStore((s) => s.bizClient);
  const userData = useGiftCardStore((s) => s.userData);
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  if (next && (bizClient || userData)) return <Navigate to={next} replace />;
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
