import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { nextQuery, safeNextPath } from '../lib/next-path';
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

const LOGIN_PATH = { business: '/business/login', user: '/login' } as const;

/**
 * A protected screen. Signed in with the other role: that role's own dashboard. Opened signed out (a bookmark,
 * a link in a mail): the role's login, which comes back here after it (`?next=`). Signed out while on it (Log
 * Out, or a 401 that cleared the store): the landing page, as before — so the guard remembers whether this
 * screen was first shown signed in.
 */
export function RequireRole({ role, children }: { role: 'business' | 'user'; children: ReactNode }) {
  const bizClient = useGiftCardStore((s) => s.bizClient);
  const userData = useGiftCardStore((s) => s.userData);
  const location = useLocation();
  const signedIn = role === 'business' ? Boolean(bizClient) : Boolean(userData);
  const [openedSignedIn] = useState(signedIn);
  if (signedIn) return children;
  const otherRole = role === 'business' ? userData : bizClient;
  if (otherRole) return <Navigate to={role === 'business' ? '/user-dashboard' : '/dashboard'} replace />;
  if (openedSignedIn) return <Navigate to="/" replace />;
  const here = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to={`${LOGIN_PATH[role]}${nextQuery(here)}`} replace />;
}
