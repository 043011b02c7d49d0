import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import * as limiter from '../../lib/rate-limiter';
import {
  PIN_LOCK_ATTEMPTS,
  PIN_LOCK_MINUTES,
  type ChangePinInput,
  type CreatePinInput,
  type PinStatus,
} from '../../../shared/wallet/pin';
import { findPasswordHash, findPin, insertPin, lockPin, updatePin } from './pin.repository';

/**
 * The business's transaction PIN (issue 5): hashed with argon2id like a password, never stored or logged in
 * the clear. Wrong tries are counted on the PIN's row under a row lock (SELECT … FOR UPDATE), so concurrent
 * wrong tries are all counted; the PIN_LOCK_ATTEMPTS-th wrong try locks withdrawals for PIN_LOCK_MINUTES.
 */

const LOCK_MS = PIN_LOCK_MINUTES * 60_000;

/** Wrong account passwords given to change the PIN: a separate budget, so the route cannot be used to guess. */
function passwordLimits(accountId: string): limiter.Limit[] {
  return [{ key: `pin-password:${accountId}`, max: PIN_LOCK_ATTEMPTS, windowSeconds: PIN_LOCK_MINUTES * 60 }];
}

type Check =
  | { kind: 'ok' }
  | { kind: 'missing' }
  | { kind: 'locked'; until: Date }
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

/** A lock whose time has passed is over: its wrong tries are forgotten. */
function activeLock(row: { lockedUntil: Date | null }, now: Date): Date | null {
  return row.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

async function checkPin(db: Db, businessId: string, pin: string): Promise<Check> {
  return db.transaction(async (tx) => {
    const row = await lockPin(tx, businessId);
    if (!row) return { kind: 'missing' } as const;
    const now = new Date();
    const lock = activeLock(row, now);
    if (lock) return { kind: 'locked', until: lock } as const;

    const failedBefore = row.lockedUntil ? 0 : row.failedAttempts;
    if (await verifyPassword(row.pinHash, pin)) {
      if (row.failedAttempts !== 0 || row.lockedUntil) {
        await updatePin(tx, businessId, { failedAttempts: 0, lockedUntil: null, updatedAt: now });
      }
      return { kind: 'ok' } as const;
    }

    const failed = failedBefore + 1;
    if (failed >= PIN_LOCK_ATTEMPTS) {
      const until = new Date(now.getTime() + LOCK_MS);
      // The lock replaces the count: once it ends, the business has a fresh set of tries.
      await updatePin(tx, businessId, { failedAttempts: 0, lockedUntil: until, updatedAt: now });
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
 * locks it and for a right PIN while locked.
 *
 * It takes the database, not a transaction, on purpose: the wrong-try count must be committed even though
 * the caller's request then fails. Call it before (outside) the transaction that moves the money.
 */
export async function assertPin(db: Db, businessId: string, pin: string): Promise<void> {
  const result = await checkPin(db, businessId, pin);
  switch (result.kind) {
    case 'ok':
      return;
    case 'missing':
      throw pinRequired();
    case 'locked':
      throw lockedError(result.until);
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
  if (!row) return { set: false, lockedUntil: null, attemptsLeft: PIN_LOCK_ATTEMPTS };
  const lock = activeLock(row, new Date());
  return {
    set: true,
    lockedUntil: lock ? lock.toISOString() : null,
    attemptsLeft: lock ? 0 : PIN_LOCK_ATTEMPTS - (row.lockedUntil ? 0 : row.failedAttempts),
  };
}

export async function createPin(db: Db, businessId: string, input: CreatePinInput): Promise<PinStatus> {
  const pinHash = await hashPassword(input.pin);
  if (!(await insertPin(db, businessId, pinHash))) {
    throw new AppError(
      'PIN_ALREADY_SET',
      'You already have a transaction PIN. Change it instead of creating a new one.',
    );
  }
  return getPinStatus(db, businessId);
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
 * cannot be used) or the account password (for a forgotten PIN; it also lifts a lock, since whoever knows
 * the password could set a new PIN anyway). When both are sent, both must be right.
 */
export async function changePin(db: Db, businessId: string, input: ChangePinInput): Promise<PinStatus> {
  if (!(await findPin(db, businessId))) throw pinRequired();
  if (input.currentPin !== undefined) await assertPin(db, businessId, input.currentPin);
  if (input.password !== undefined) await assertPassword(db, businessId, input.password);

  const pinHash = await hashPassword(input.newPin);
  await updatePin(db, businessId, { pinHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() });
  return getPinStatus(db, businessId);
}
