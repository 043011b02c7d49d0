import { createHash } from 'node:crypto';
import {
  PASSWORD_RESET_MINUTES,
  passwordMessages,
  type ChangePassword,
  type PasswordResetConfirm,
  type PasswordResetRequest,
} from '../../../shared/accounts/schemas';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { randomToken } from '../../lib/crypto';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import * as limiter from '../../lib/rate-limiter';
import { notify, queueMail } from '../notifications/notifications.service';
import {
  findAccountByEmail,
  findAccountById,
  lockAccount,
  updatePasswordHash,
  type AccountRow,
} from './accounts.repository';
import { loginLimits, type AuthDeps } from './accounts.service';
import {
  endResetTokens,
  insertResetToken,
  isLiveResetToken,
  useResetToken,
} from './password-reset.repository';
import { revokeSessionsOf } from './sessions.repository';

/**
 * Passwords (issue 12): a signed-in change (the current password is checked like a login and counted in
 * the same budget), and "forgot password" by a mailed single-use link. Both end sessions and tell the owner.
 */

const HOUR_SECONDS = 60 * 60;
/** Reset mails per address and per IP an hour: enough for a person, too few to flood someone's inbox. */
export const RESET_REQUESTS_PER_ADDRESS = 3;
export const RESET_REQUESTS_PER_IP = 10;

/** Only the SHA-256 of a reset token is stored: 256 random bits need no key or slow hash. */
function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** The login page of the account's role, for links in mail. */
function forgotPasswordPath(role: AccountRow['role']): string {
  return `/forgot-password?role=${role}`;
}

/** The "your password was changed" notification and mail, written in the transaction that changed it. */
async function tellOwnerPasswordChanged(
  tx: DbOrTx,
  account: AccountRow,
  how: 'changed' | 'reset',
): Promise<void> {
  const when = `${whenFormat.format(new Date())} UTC`;
  const title = 'Your password was changed';
  const body =
    how === 'changed'
      ? `Your Giftmart password was changed on ${when}. Every other device was signed out.`
      : `Your Giftmart password was reset with an e-mailed link on ${when}. Every device was signed out.`;
  await notify(tx, [
    {
      accountId: account.id,
      kind: 'security_alert',
      title,
      body,
      link: account.role === 'business' ? '/dashboard/account?tab=security' : '/user-dashboard/profile',
      mail: {
        subject: 'Your Giftmart password was changed',
        heading: title,
        paragraphs: [
          body,
          'If this was you, there is nothing more to do.',
          'If it was not you, someone else knows your password or can read your e-mail: reset your password ' +
            'now with "Forgot password?" on the login page, secure your e-mail account, and check your ' +
            'signed-in devices under Security.',
        ],
        action: { label: 'Reset my password', path: forgotPasswordPath(account.role) },
      },
    },
  ]);
}

/**
 * Changes the signed-in account's password. The current password is counted before it is checked, in the
 * login budget (per account and per IP), and a right one gives its try back, as a login does. Every other
 * session ends; the one making the change stays signed in.
 */
export async function changePassword(
  deps: AuthDeps,
  caller: { accountId: string; sessionId: string },
  input: ChangePassword,
  context: { ip: string },
): Promise<void> {
  const { db, config } = deps;
  const limits = loginLimits(config, caller.accountId, context.ip);
  await limiter.consume(db, limits, 'Too many wrong passwords.');
  const account = await findAccountById(db, caller.accountId);
  if (!account || !(await verifyPassword(account.passwordHash, input.currentPassword))) {
    throw wrongCurrentPassword();
  }
  await limiter.clear(db, limits[0]!.key);
  await limiter.refund(db, limits.slice(1));

  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    // Only over the hash that was just checked: of two changes sent at once with it, one wins.
    const updated = await updatePasswordHash(tx, account.id, passwordHash, account.passwordHash);
    if (!updated) throw wrongCurrentPassword();
    await revokeSessionsOf(tx, account.id, caller.sessionId);
    await endResetTokens(tx, account.id);
    await tellOwnerPasswordChanged(tx, updated, 'changed');
  });
}

function wrongCurrentPassword(): AppError {
  return new AppError('PASSWORD_INCORRECT', passwordMessages.currentWrong, {
    details: { fieldErrors: { currentPassword: [passwordMessages.currentWrong] } },
  });
}

/**
 * "Forgot password": mails a single-use link when the address has an account, and answers the same either
 * way. Requests are limited per address and per IP (counted in PostgreSQL, so across every instance) before
 * anything is looked up, so the limit says nothing about the address either.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: PasswordResetRequest,
  context: { ip: string },
): Promise<{ message: string }> {
  const { db } = deps;
  await limiter.consume(
    db,
    [
      {
        key: `password-reset:address:${input.email}`,
        max: RESET_REQUESTS_PER_ADDRESS,
        windowSeconds: HOUR_SECONDS,
      },
      { key: `password-reset:ip:${context.ip}`, max: RESET_REQUESTS_PER_IP, windowSeconds: HOUR_SECONDS },
    ],
    'Too many password reset requests.',
  );
  const found = await findAccountByEmail(db, input.email);
  if (found && !found.deletedAt) {
    await db.transaction(async (tx) => {
      // The row lock makes "end the older links, add this one" one step: one live link per account.
      const account = await lockAccount(tx, found.id);
      if (!account || account.deletedAt) return;
      const token = randomToken();
      await endResetTokens(tx, account.id);
      await insertResetToken(tx, {
        accountId: account.id,
        tokenHash: hashResetToken(token),
        expiresAt: new Date(Date.now() + PASSWORD_RESET_MINUTES * 60 * 1000),
      });
      await queueMail(tx, [
        {
          to: account.email,
          accountId: account.id,
          kind: 'password_reset',
          subject: 'Reset your Giftmart password',
          heading: 'Reset your password',
          paragraphs: [
            `Someone, hopefully you, asked to reset the password of the Giftmart ${
              account.role === 'business' ? 'business' : 'user'
            } account that uses this address.`,
            `The link works once, for ${PASSWORD_RESET_MINUTES} minutes. Resetting signs out every device.`,
            'If you did not ask, ignore this mail: your password stays as it is.',
          ],
          // The token rides in the fragment, which browsers never send, so it stays out of server logs.
          action: {
            label: 'Choose a new password',
            path: `/reset-password#token=${token}&role=${account.role}`,
          },
        },
      ]);
    });
  }
  return { message: passwordMessages.resetRequested };
}

function resetLinkInvalid(): AppError {
  return new AppError('RESET_LINK_INVALID', passwordMessages.resetLinkInvalid);
}

/**
 * Sets a new password from a mailed link. The link is used (marked) in the same transaction that sets the
 * password, by one conditional UPDATE, so of any number of requests with it exactly one succeeds. Every
 * session of the account ends and its login lock-out is lifted; it does not sign in.
 */
export async function confirmPasswordReset(deps: AuthDeps, input: PasswordResetConfirm): Promise<void> {
  const { db } = deps;
  const tokenHash = hashResetToken(input.token);
  // A cheap look first, so a made-up token costs no password hash.
  if (!(await isLiveResetToken(db, tokenHash))) throw resetLinkInvalid();
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    const accountId = await useResetToken(tx, tokenHash);
    if (!accountId) throw resetLinkInvalid();
    const account = await lockAccount(tx, accountId);
    if (!account || account.deletedAt) throw resetLinkInvalid();
    const updated = (await updatePasswordHash(tx, account.id, passwordHash))!;
    await revokeSessionsOf(tx, account.id);
    await endResetTokens(tx, account.id);
    await limiter.clear(tx, loginLimits(deps.config, account.id, '')[0]!.key);
    await tellOwnerPasswordChanged(tx, updated, 'reset');
  });
}
