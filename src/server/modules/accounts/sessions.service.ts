import type { SignedInDevices } from '../../../shared/accounts/schemas';
import { AppError } from '../../lib/app-error';
import type { AuthDeps } from './accounts.service';
import { listLiveSessions, revokeSessionOf, revokeSessionsOf } from './sessions.repository';
import { describeUserAgent } from './user-agent';

/**
 * The signed-in devices of the caller's own account (issue 12): where each live session came from and when
 * it was last seen, and signing one or all the others out. A session id never reaches another account's.
 */
export interface Caller {
  accountId: string;
  sessionId: string;
}

export async function listMySessions(deps: AuthDeps, caller: Caller): Promise<SignedInDevices> {
  const rows = await listLiveSessions(deps.db, caller.accountId);
  return {
    items: rows.map((row) => ({
      id: row.id,
      browser: describeUserAgent(row.userAgent, row.kind),
      ip: row.ip,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      current: row.id === caller.sessionId,
      kind: row.kind,
    })),
  };
}

/** Signs out one of the caller's sessions; answers whether it was the one making this request. */
export async function signOutSession(
  deps: AuthDeps,
  caller: Caller,
  sessionId: string,
): Promise<{ current: boolean }> {
  const ended = await revokeSessionOf(deps.db, caller.accountId, sessionId);
  if (!ended) {
    throw new AppError('SESSION_NOT_FOUND', 'That device is not signed in to your account (any more).');
  }
  return { current: sessionId === caller.sessionId };
}

/** "Sign out everywhere else": every session of the caller's account but this one. */
export async function signOutOtherSessions(deps: AuthDeps, caller: Caller): Promise<void> {
  await revokeSessionsOf(deps.db, caller.accountId, caller.sessionId);
}
