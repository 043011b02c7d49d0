import { useQuery, useQueryClient } from '@tanstack/react-query';
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
  const queryClient = useQueryClient();
  const signedIn = useGiftCardStore((s) => Boolean(s.bizClient ?? s.userData));

  useEffect(
    () =>
      onUnauthorized(() => {
        useGiftCardStore.getState().reset();
        queryClient.clear();
        navigate('/', { replace: true });
      }),
    [navigate, queryClient],
  );

  const session = useQuery({
    queryKey: ['session'],
    queryFn: () => api<Session>('/api/v1/auth/session'),
    enabled: signedIn,
    retry: false,
  });

  useEffect(() => {
    if (session.data) setSignedIn(session.data.account);
  }, [session.data]);

  return <Outlet />;
}
