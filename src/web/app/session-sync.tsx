import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import type { Session } from '../../shared/accounts/schemas';
import { api, onUnauthorized } from '../lib/api';
import { setSignedIn, useGiftCardStore } from '../lib/store';

/**
 * The stored profile only picks the dashboard; the server decides whether the session is alive. On load
 * (when a profile is stored) it asks, and any 401 anywhere clears the store and goes to / (replace).
 */
export function SessionSync() {
  const navigate = useNavigate();
  const signedIn = useGiftCardStore((s) => Boolean(s.bizClient ?? s.userData));

  useEffect(
    () =>
      onUnauthorized(() => {
        useGiftCardStore.getState().reset();
        navigate('/', { replace: true });
      }),
    [navigate],
  );

  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    api<Session>('/api/v1/auth/session', { signal: controller.signal })
      .then((session) => setSignedIn(session.account))
      .catch(() => undefined); // a 401 is handled by the listener above; a network error keeps the profile
    return () => controller.abort();
  }, [signedIn]);

  return <Outlet />;
}
