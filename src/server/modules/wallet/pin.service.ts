import type { Db, DbOrTx } from '../../db/client';
import type { Config } from '../../env';
import { AppError } from '../../lib/app-error';
import { verifyPassword } from '../../lib/passwords';
import * as limiter from '../../lib/rate-limiter';
import { notify } from '../notifications/notifications.service';
import {
  PIN_ESCALATE_HOURS,
  PIN_ESCALATE_LOCKS,
  PIN_LOCK_ATTEMPTS,
  PIN_LOCK_MINUTES,
  type ChangePinInput,
  type CreatePinInput,
  type PinStatus,
} from '../../../shared/wallet/pin';
import { hashPin, isCurrentPinHash, verifyPin } from './pin-hash';
import { findPasswordHash, findPin, insertPin, lockPin, replacePinHash, updatePin } from './pin.repository';

/**
 * The business's transaction PIN (issue 5): never stored or logged in the clear, only as a keyed hash
 * (HMAC-SHA256 of the account id and PIN under a key derived from CODE_ENCRYPTION_KEY; pin-hash.ts). Not
 * argon2id like the account password: its ~50 ms per check dominated withdrawals (issue 14), and four digits
 * are protected by the lock-out below, not by hashing cost. A PIN set before then (argon2id) is still accepted
 * and is rewritten in the keyed form on its next right check.
 *
 * Wrong tries are counted on the PIN's row under a row lock (SELECT … FOR UPDATE), so concurrent wrong tries
 * are all counted; the PIN_LOCK_ATTEMPTS-th wrong try locks withdrawals for PIN_LOCK_MINUTES.
 *
 * A lock ends with a fresh set of tries, so on its own it only slows a guesser down (a stolen 30-day session
 * could try all 10,000 PINs in about three weeks). The locks are therefore counted as well: the
 * PIN_ESCALATE_LOCKS-th within PIN_ESCALATE_HOURS blocks the PIN for good (PIN_RESET_REQUIRED) until the
 * owner sets a new one with the account password, and tells them by notification and mail (issue 12, hole 10).
 * A right PIN does not forget earlier locks: the owner typing it between a thief's rounds must not buy the
 * thief another round.
 */

/** What the PIN functions need: the database and the key the PIN's hash is derived from. */
export interface PinDeps {
  db: Db;
  config: Pick<Config, 'CODE_ENCRYPTION_KEY'>;
}

const LOCK_MS = PIN_LOCK_MINUTES * 60_000;
const ESCALATE_MS = PIN_ESCALATE_HOURS * 3_600_000;

/** Wrong account passwords given to change the PIN: a separate budget, so the route cannot be used to guess. */
function passwordLimits(accountId: string): limiter.Limit[] {
  return [{ key: `pin-password:${accountId}`, max: PIN_LOCK_ATTEMPTS, windowSeconds: PIN_LOCK_MINUTES * 60 }];
}

type Check =
  | { kind: 'ok' }
  | { kind: 'missing' }
  | { kind: 'locked'; until: Date }
  | { kind: 'reset_required' }
  | { kind: 'wrong'; attemptsLeft: number };

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function pinRequired(): AppError {
  return new AppError(
    'PIN_REQUIRED',
    'Create your transaction PIN first: Account → Security → Create Transaction PIN.',
  );
}

function lockedError(until: Date, now = new Date()): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    'PIN_LOCKED',
    `Too many wrong PINs. Withdrawals are locked for another ${plural(minutes, 'minute', 'minutes')}.`,
    {
      details: { retryAfterSeconds, lockedUntil: until.toISOString() },
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
}

function resetRequired(): AppError {
  return new AppError(
    'PIN_RESET_REQUIRED',
    'Your transaction PIN was locked too many times, so it no longer works. Set a new PIN with your ' +
      'account password: Account → Security → Change Transaction PIN → Forgot your PIN? Use your account password.',
  );
}

/** Tells the owner their PIN was blocked, in the transaction that blocks it. */
async function tellOwnerPinBlocked(tx: DbOrTx, businessId: string): Promise<void> {
  const title = 'Your transaction PIN was blocked';
  const body =
    `Wrong PINs locked your withdrawals ${PIN_ESCALATE_LOCKS} times in ${PIN_ESCALATE_HOURS} hours, so the ` +
    'PIN no longer works. Set a new one with your account password to withdraw again.';
  const path = '/dashboard/account?tab=security&pin=change';
  await notify(tx, [
    {
      accountId: businessId,
      kind: 'security_alert',
      title,
      body,
      link: path,
      mail: {
        subject: 'Giftmart: your transaction PIN was blocked',
        heading: title,
        paragraphs: [
          body,
          'If this was not you, someone may be signed in to your account: change your password as well, ' +
            'then set a new transaction PIN.',
        ],
        action: { label: 'Set a new PIN', path },
      },
    },
  ]);
}

/** A lock whose time has passed is over: its wrong tries are forgotten. */
function activeLock(row: { lockedUntil: Date | null }, now: Date): Date | null {
  return row.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

async function checkPin(deps: PinDeps, businessId: string, pin: string): Promise<Check> {
  const secret = deps.config.CODE_ENCRYPTION_KEY;
  // Issue 14: the common case in one read and no transaction. A right PIN on a PIN with no wrong tries, no
  // lock and a current hash changes nothing, so it needs no lock; it is answered as if it came just before
  // any check running at the same time. Every other case (a wrong PIN above all) is decided under the lock.
  // (A withdrawal makes this same check inside its one statement, migration 0021, and comes here otherwise.)
  const seen = await findPin(deps.db, businessId);
  if (
    seen &&
    !seen.resetRequiredAt &&
    !seen.lockedUntil &&
    seen.failedAttempts === 0 &&
    isCurrentPinHash(seen.pinHash) &&
    (await verifyPin(secret, businessId, pin, seen.pinHash))
  ) {
    return { kind: 'ok' } as const;
  }
  return deps.db.transaction(async (tx) => {
    const row = await lockPin(tx, businessId);
    if (!row) return { kind: 'missing' } as const;
    // Checked before the PIN, so a blocked PIN is no longer an oracle for guesses either.
    if (row.resetRequiredAt) return { kind: 'reset_required' } as const;
    const now = new Date();
    const lock = activeLock(row, now);
    if (lock) return { kind: 'locked', until: lock } as const;

    const failedBefore = row.lockedUntil ? 0 : row.failedAttempts;
    if (await verifyPin(secret, businessId, pin, row.pinHash)) {
      // The keyed form needs the PIN itself, so an argon2id hash can only move on a right PIN. Only that exact
      // old hash is replaced, so a PIN changed meanwhile is never undone.
      if (!isCurrentPinHash(row.pinHash)) {
        await replacePinHash(tx, businessId, row.pinHash, hashPin(secret, businessId, pin));
      }
      if (row.failedAttempts !== 0 || row.lockedUntil) {
        await updatePin(tx, businessId, { failedAttempts: 0, lockedUntil: null, updatedAt: now });
      }
      return { kind: 'ok' } as const;
    }

    const failed = failedBefore + 1;
    if (failed >= PIN_LOCK_ATTEMPTS) {
      const recentLocks = [...row.recentLocks.filter((t) => now.getTime() - t.getTime() < ESCALATE_MS), now];
      if (recentLocks.length >= PIN_ESCALATE_LOCKS) {
        await updatePin(tx, businessId, {
          failedAttempts: 0,
          lockedUntil: null,
          recentLocks: [],
          resetRequiredAt: now,
          updatedAt: now,
        });
        await tellOwnerPinBlocked(tx, businessId);
        return { kind: 'reset_required' } as const;
      }
      const until = new Date(now.getTime() + LOCK_MS);
      // The lock replaces the count: once it ends, the business has a fresh set of tries.
      await updatePin(tx, businessId, { failedAttempts: 0, lockedUntil: until, recentLocks, updatedAt: now });
      return { kind: 'locked', until } as const;
    }
    await updatePin(tx, businessId, { failedAttempts: failed, lockedUntil: null, updatedAt: now });
    return { kind: 'wrong', attemptsLeft: PIN_LOCK_ATTEMPTS - failed } as const;
  });
}

/**
 * Checks a business's transaction PIN; resolves when it is right (and forgets earlier wrong tries).
 * Throws AppError PIN_REQUIRED (no PIN yet), PIN_INCORRECT (wrong; counted, the message says how many tries
 * are left) or PIN_LOCKED (too many wrong tries; `details.retryAfterSeconds`), including on the try that
 * locks it and for a right PIN while locked, or PIN_RESET_REQUIRED (locked too often; any PIN, from the try
 * that blocks it until a new PIN is set with the password).
 *
 * It takes the database (deps.db), not a transaction, on purpose: the wrong-try count must be committed even
 * though the caller's request then fails. Call it before (outside) the transaction that moves the money.
 */
export async function assertPin(deps: PinDeps, businessId: string, pin: string): Promise<void> {
  const result = await checkPin(deps, businessId, pin);
  switch (result.kind) {
    case 'ok':
      return;
    case 'missing':
      throw pinRequired();
    case 'locked':
      throw lockedError(result.until);
    case 'reset_required':
      throw resetRequired();
    case 'wrong':
      throw new AppError(
        'PIN_INCORRECT',
        `Wrong PIN. ${plural(result.attemptsLeft, 'try', 'tries')} left before withdrawals lock for ${PIN_LOCK_MINUTES} minutes.`,
        { details: { attemptsLeft: result.attemptsLeft } },
      );
  }
}

export async function getPinStatus(db: Db, businessId: string): Promise<PinStatus> {
  const row = await findPin(db, businessId);
  if (!row) return { set: false, lockedUntil: null, attemptsLeft: PIN_LOCK_ATTEMPTS, resetRequired: false };
  if (row.resetRequiredAt) return { set: true, lockedUntil: null, attemptsLeft: 0, resetRequired: true };
  const lock = activeLock(row, new Date());
  return {
    set: true,
    lockedUntil: lock ? lock.toISOString() : null,
    attemptsLeft: lock ? 0 : PIN_LOCK_ATTEMPTS - (row.lockedUntil ? 0 : row.failedAttempts),
    resetRequired: false,
  };
}

export async function createPin(
  deps: PinDeps,
  businessId: string,
  input: CreatePinInput,
): Promise<PinStatus> {
  const pinHash = hashPin(deps.config.CODE_ENCRYPTION_KEY, businessId, input.pin);
  if (!(await insertPin(deps.db, businessId, pinHash))) {
    throw new AppError(
      'PIN_ALREADY_SET',
      'You already have a transaction PIN. Change it instead of creating a new one.',
    );
  }
  return getPinStatus(deps.db, businessId);
}

async function assertPassword(db: Db, businessId: string, password: string): Promise<void> {
  const limits = passwordLimits(businessId);
  // Counted before the check, atomically, so parallel tries cannot all pass a "still under the limit" read.
  await limiter.consume(db, limits, 'Too many wrong passwords.');
  const passwordHash = await findPasswordHash(db, businessId);
  if (!passwordHash || !(await verifyPassword(passwordHash, password))) {
    throw new AppError('FORBIDDEN', 'That password is not correct.');
  }
  await limiter.clear(db, limits[0]!.key);
}

/**
 * Changes the PIN after checking the current PIN (a wrong one counts toward the lock-out, and a locked PIN
 * cannot be used) or the account password (for a forgotten PIN; it also lifts a lock and a block, since
 * whoever knows the password could set a new PIN anyway). When both are sent, both must be right, so a
 * blocked PIN (PIN_RESET_REQUIRED) can only be replaced with the password alone.
 */
export async function changePin(
  deps: PinDeps,
  businessId: string,
  input: ChangePinInput,
): Promise<PinStatus> {
  const { db } = deps;
  if (!(await findPin(db, businessId))) throw pinRequired();
  if (input.currentPin !== undefined) await assertPin(deps, businessId, input.currentPin);
  if (input.password !== undefined) await assertPassword(db, businessId, input.password);

  const pinHash = hashPin(deps.config.CODE_ENCRYPTION_KEY, businessId, input.newPin);
  // A new PIN starts clean: no wrong tries, no lock, no block. Only the password path can reach this while
  // blocked (assertPin refuses the old PIN), and the thief would need the password too.
  await updatePin(db, businessId, {
    pinHash,
    failedAttempts: 0,
    lockedUntil: null,
    recentLocks: [],
    resetRequiredAt: null,
    updatedAt: new Date(),
  });
  return getPinStatus(db, businessId);
}
