import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SignedInDevice } from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
import { listSessions, sessionsQueryKey, signOutOtherSessions, signOutSession } from './api';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

/** "just now", "5 minutes ago", "yesterday", "12 days ago" (sessions live 30 days at most). */
export function lastSeen(iso: string, now = Date.now()): string {
  const elapsed = now - new Date(iso).getTime();
  if (elapsed < 60 * 1000) return 'just now';
  const [unit, size] = UNITS.find(([, ms]) => elapsed >= ms)!;
  return relative.format(-Math.floor(elapsed / size), unit);
}

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

function DeviceRow({
  device,
  busy,
  onSignOut,
}: {
  device: SignedInDevice;
  busy: boolean;
  onSignOut: () => void;
}) {
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span className="break-words">{device.browser}</span>
          {device.current ? (
            <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900">
              This device
            </span>
          ) : null}
        </p>
        <p className="mt-1 break-words text-sm text-slate-600">
          {device.ip ? <>IP {device.ip} · </> : null}
          {device.current ? 'Active now' : `Last seen ${lastSeen(device.lastSeenAt)}`}
        </p>
      </div>
      {device.current ? null : (
        <Button
          variant="secondary"
          onClick={onSignOut}
          disabled={busy}
          aria-label={`Sign out ${device.browser}${device.ip ? ` (${device.ip})` : ''}`}
          className="w-full shrink-0 sm:w-auto"
        >
          {busy ? 'Signing out…' : 'Sign out'}
        </Button>
      )}
    </li>
  );
}

/** Account → Security: where the account is signed in, and signing one or every other device out. */
export function SignedInDevices() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: sessionsQueryKey, queryFn: ({ signal }) => listSessions(signal) });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function run(key: string, action: () => Promise<void>, done: string) {
    setBusy(key);
    setError(null);
    setNotice(null);
    try {
      await action();
      setNotice(done);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    }
  }

  const items = sessions.data?.items ?? [];
  const others = items.filter((d) => !d.current).length;

  return (
    <section
      aria-labelledby="signed-in-devices-title"
      className="mt-6 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="signed-in-devices-title" className="text-lg font-bold text-slate-900">
            Signed-in devices
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Where your account is open now. Sign out any you do not recognise, then change your password.
          </p>
        </div>
        {others > 0 ? (
          <Button
            variant="danger"
            onClick={() => void run('others', signOutOtherSessions, 'Every other device was signed out.')}
            disabled={busy !== null}
            className="w-full shrink-0 sm:w-auto"
          >
            {busy === 'others' ? 'Signing out…' : 'Sign out everywhere else'}
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="mx-5 mt-4 rounded-lg bg-red-50 px-3.5 py-2.5 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <p
        role="status"
        className={
          notice ? 'mx-5 mt-4 rounded-lg bg-emerald-50 px-3.5 py-2.5 text-sm text-emerald-900' : 'sr-only'
        }
      >
        {notice}
      </p>
      {sessions.isPending ? (
        <p className="px-5 py-4 text-sm text-slate-600">Loading your devices…</p>
      ) : sessions.isError ? (
        <p role="alert" className="px-5 py-4 text-sm text-red-700">
          We could not load your devices. {errorText(sessions.error)}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Signed-in devices">
          {items.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              busy={busy === device.id}
              onSignOut={() =>
                void run(device.id, () => signOutSession(device.id), `${device.browser} was signed out.`)
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}
