import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
import { setSignedIn, useGiftCardStore } from '../../lib/store';
import { confirmEmailChange, getAccount } from './profile-api';

function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && token.length > 0 ? token : null;
}

/**
 * /confirm-email#token=… — where the mailed link to a new e-mail address leads. It works on any device,
 * signed in or not: the token is sent once, then taken out of the address bar.
 */
export default function ConfirmEmailPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  const user = useGiftCardStore((s) => s.userData);
  const business = useGiftCardStore((s) => s.bizClient);
  const signedIn = user ?? business;
  const confirm = useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: async () => {
      // This browser's stored profile shows the new address too (when it is the same account's).
      if (signedIn) {
        try {
          setSignedIn(await getAccount());
        } catch {
          // Signed in as nobody any more, or another account: the stored profile stays as the server says.
        }
      }
    },
  });
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate(token);
    navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [token, confirm, navigate, location.pathname, location.search]);

  const home = business ? '/dashboard' : user ? '/user-dashboard' : null;

  return (
    <section className="mx-auto w-full max-w-lg px-4 py-16">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">
          {confirm.isSuccess ? 'E-mail confirmed' : 'Confirm your e-mail'}
        </h1>
        {!token ? (
          <p role="alert" className="mt-4 text-slate-700">
            This link is incomplete. Open the link from the mail again, or ask for a new one in your profile.
          </p>
        ) : confirm.isError ? (
          <p role="alert" className="mt-4 text-slate-700">
            {confirm.error instanceof ApiError
              ? confirm.error.message
              : 'Something went wrong. Please try again.'}
          </p>
        ) : confirm.isSuccess ? (
          <p role="status" className="mt-4 text-slate-700">
            Your e-mail address is now <strong className="break-all">{confirm.data.email}</strong>. Use it to
            log in from now on.
          </p>
        ) : (
          <p className="mt-4 text-slate-600">Confirming your new address…</p>
        )}
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {home ? (
            <ButtonLink to={home}>Go to your dashboard</ButtonLink>
          ) : (
            <>
              <ButtonLink to="/login">Log in</ButtonLink>
              <ButtonLink to="/business/login" variant="secondary">
                Log in as a business
              </ButtonLink>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
