import { createHash } from 'node:crypto';
import {
  EMAIL_CHANGE_HOURS,
  cardsWord,
  profileMessages,
  type AccountDeletion,
  type DeleteAccount,
  type EmailChange,
  type UpdateProfile,
} from '../../../shared/accounts/profile';
import { formatMoney } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import type { AccountDeletionParticipant, DeletingAccount } from '../../lib/account-deletion';
import { AppError } from '../../lib/app-error';
import { randomToken } from '../../lib/crypto';
import type { CoreDeps } from '../../lib/deps';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import * as limiter from '../../lib/rate-limiter';
import { notify, queueMail } from '../notifications/notifications.service';
import { findAccount, type AccountRow } from './accounts.service';
import {
  anonymiseAccount,
  businessNameTakenByAnother,
  claimEmailChangeToken,
  deleteAccountTokens,
  emailTakenByAnother,
  endEmailChangeTokens,
  insertEmailChangeToken,
  lockLiveAccount,
  revokeAllSessions,
  updateEmail,
  updateProfileFields,
} from './profile.repository';

export interface ProfileDeps extends CoreDeps {
  /** The rooms that keep something of an account (cards, wallet, catalogue, notifications); see app.ts. */
  deletionParticipants: AccountDeletionParticipant[];
}

export interface Caller {
  id: string;
  ip: string;
}

const taken = {
  email: { code: 'EMAIL_TAKEN', field: 'email', message: 'An account with this email already exists.' },
  username: {
    code: 'USERNAME_TAKEN',
    field: 'username',
    message: 'This username is taken. Please choose another.',
  },
  name: {
    code: 'BUSINESS_NAME_TAKEN',
    field: 'name',
    message: 'A business with this name already exists.',
  },
} as const;

function takenError(kind: keyof typeof taken, field: string = taken[kind].field): AppError {
  const { code, message } = taken[kind];
  return new AppError(code, message, { details: { fieldErrors: { [field]: [message] } } });
}

/** The unique indexes decide a race the pre-checks cannot: a violation becomes the field's 409, never a 500. */
async function explainUniqueViolations<T>(work: () => Promise<T>, emailField = 'email'): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const pg =
      (error as { cause?: { code?: string; constraint?: string } }).cause ??
      (error as { code?: string; constraint?: string });
    if (pg.code === '23505') {
      if (pg.constraint === 'accounts_username_unique') throw takenError('username');
      if (pg.constraint === 'accounts_business_name_unique') throw takenError('name');
      if (pg.constraint === 'accounts_email_unique') throw takenError('email', emailField);
    }
    throw error;
  }
}

async function liveAccount(deps: CoreDeps, id: string): Promise<AccountRow> {
  const account = await findAccount(deps.db, id);
  if (!account || account.deletedAt) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return account;
}

export function getProfile(deps: CoreDeps, accountId: string): Promise<AccountRow> {
  return liveAccount(deps, accountId);
}

export async function updateProfile(
  deps: CoreDeps,
  accountId: string,
  input: UpdateProfile,
): Promise<AccountRow> {
  const account = await liveAccount(deps, accountId);
  if (input.username !== undefined && account.role !== 'user') {
    throw new AppError('VALIDATION_FAILED', profileMessages.usernameForUsers, {
      details: { fieldErrors: { username: [profileMessages.usernameForUsers] } },
    });
  }
  const updated = await explainUniqueViolations(() =>
    updateProfileFields(deps.db, accountId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.phoneNumber !== undefined ? { phone: input.phoneNumber } : {}),
      ...(input.username !== undefined ? { username: input.username } : {}),
    }),
  );
  if (!updated) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return updated;
}

/**
 * The account password, asked again before a change that matters. A wrong one is a failed login: it spends
 * the account's and the IP's login budget (counted before the check, so parallel guesses cannot outrun it).
 */
async function assertPassword(deps: CoreDeps, account: AccountRow, password: string, ip: string) {
  const { config, db } = deps;
  const limits: limiter.Limit[] = [
    {
      key: `login:account:${account.id}`,
      max: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    {
      key: `login:ip:${ip}`,
      max: config.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    },
  ];
  await limiter.consume(db, limits, 'Too many wrong passwords.');
  if (!(await verifyPassword(account.passwordHash, password))) {
    throw new AppError('INVALID_CREDENTIALS', 'That password is not correct.', {
      details: { fieldErrors: { password: ['That password is not correct.'] } },
    });
  }
  await limiter.refund(db, limits);
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Mails a single-use link to the new address (the e-mail changes only when it is opened) and tells the old
 * address that a change was asked for. A newer request ends the older links.
 */
export async function requestEmailChange(
  deps: CoreDeps,
  caller: Caller,
  input: EmailChange,
): Promise<{ message: string }> {
  const account = await liveAccount(deps, caller.id);
  await assertPassword(deps, account, input.password, caller.ip);
  if (input.newEmail.toLowerCase() === account.email.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', profileMessages.sameEmail, {
      details: { fieldErrors: { newEmail: [profileMessages.sameEmail] } },
    });
  }
  if (await emailTakenByAnother(deps.db, input.newEmail, account.id)) throw takenError('email', 'newEmail');

  const token = randomToken();
  await deps.db.transaction(async (tx) => {
    await endEmailChangeTokens(tx, account.id);
    await insertEmailChangeToken(tx, {
      accountId: account.id,
      tokenHash: hashLinkToken(token),
      newEmail: input.newEmail,
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_HOURS * 60 * 60 * 1000),
    });
    await queueMail(tx, [
      {
        to: input.newEmail,
        kind: 'email_change',
        accountId: account.id,
        subject: 'Confirm your new Giftmart e-mail address',
        heading: 'Confirm your new e-mail address',
        paragraphs: [
          `${account.name} asked to use this address for their Giftmart account.`,
          `Open the link below within ${EMAIL_CHANGE_HOURS} hours to confirm it. Until then the account keeps its old address.`,
          'If you did not ask for this, ignore this mail: nothing changes.',
        ],
        action: { label: 'Confirm this address', path: `/confirm-email#token=${token}` },
      },
    ]);
    await queueMail(tx, [
      {
        to: account.email,
        kind: 'security_alert',
        accountId: account.id,
        subject: 'A new e-mail address was asked for on your Giftmart account',
        heading: 'Your e-mail address may change',
        paragraphs: [
          `Someone signed in to your account asked to change its e-mail address to ${input.newEmail}.`,
          'It changes only when the link we sent to that address is opened.',
          'If this was not you, change your password now: whoever asked knew it.',
        ],
      },
    ]);
  });
  return { message: `We sent a link to ${input.newEmail}. Your e-mail changes when you open it.` };
}

const linkInvalid = () =>
  new AppError(
    'EMAIL_LINK_INVALID',
    'This link is not valid any more: it was used, replaced by a newer one or is over 24 hours old. Ask for a new one in your profile.',
  );

/** Opens the mailed link: works once, on any device, with no session. */
export async function confirmEmailChange(deps: CoreDeps, token: string): Promise<{ email: string }> {
  return explainUniqueViolations(() =>
    deps.db.transaction(async (tx) => {
      const claimed = await claimEmailChangeToken(tx, hashLinkToken(token));
      if (!claimed) throw linkInvalid();
      const account = await lockLiveAccount(tx, claimed.accountId);
      if (!account) throw linkInvalid();
      const oldEmail = account.email;
      await updateEmail(tx, account.id, claimed.newEmail);
      await notify(tx, [
        {
          accountId: account.id,
          kind: 'security_alert',
          title: 'Your e-mail address changed',
          body: `Your account's e-mail address is now ${claimed.newEmail}.`,
          link: account.role === 'business' ? '/dashboard/account' : '/user-dashboard/profile',
        },
      ]);
      await queueMail(tx, [
        {
          to: oldEmail,
          kind: 'security_alert',
          accountId: account.id,
          subject: 'Your Giftmart e-mail address changed',
          heading: 'Your e-mail address changed',
          paragraphs: [
            `Your Giftmart account now uses ${claimed.newEmail}; mail no longer comes to this address.`,
            'If this was not you, reply to this mail or write to support at once.',
          ],
        },
      ]);
      return { email: claimed.newEmail };
    }),
  );
}

async function assess(
  db: DbOrTx,
  participants: AccountDeletionParticipant[],
  account: DeletingAccount,
): Promise<AccountDeletion> {
  const blockers: AccountDeletion['blockers'] = [];
  let count = 0;
  let total = 0n;
  for (const participant of participants) {
    const part = await participant.assess(db, account);
    blockers.push(...part.blockers);
    if (part.cardsToGiveUp) {
      count += part.cardsToGiveUp.count;
      total += part.cardsToGiveUp.total;
    }
  }
  return {
    canDelete: blockers.length === 0,
    blockers,
    cardsToGiveUp: { count, total: Number(total), currency: account.currency },
  };
}

function deleting(deps: CoreDeps, account: AccountRow): DeletingAccount {
  return { id: account.id, role: account.role, email: account.email, currency: deps.config.CURRENCY };
}

/**
 * The deleted account's name, address and username: derived from its id, so they are unique, and no living
 * account can hold them (usernames have no '-'; `.invalid` addresses are refused). Business ids are public,
 * so another business may have renamed itself to the derived name first: then a random suffix is added,
 * rather than let one business stop another from leaving.
 */
async function anonymousIdentity(tx: DbOrTx, account: AccountRow) {
  const plainId = account.id.replaceAll('-', '');
  let name = account.role === 'business' ? `Deleted business ${plainId.slice(0, 12)}` : 'Deleted account';
  if (account.role === 'business' && (await businessNameTakenByAnother(tx, name, account.id))) {
    name = `Deleted business ${plainId}-${randomToken().slice(0, 8)}`;
  }
  let email = `deleted+${account.id}@deleted.invalid`;
  if (await emailTakenByAnother(tx, email, account.id)) {
    email = `deleted+${account.id}.${randomToken().slice(0, 8)}@deleted.invalid`;
  }
  return { name, email, username: account.role === 'user' ? `deleted-${plainId}` : null };
}

/** What stands between the account and its deletion, in words, and the cards a user would give up. */
export async function getDeletionStatus(deps: ProfileDeps, accountId: string): Promise<AccountDeletion> {
  const account = await liveAccount(deps, accountId);
  return deps.db.transaction((tx) => assess(tx, deps.deletionParticipants, deleting(deps, account)));
}

/**
 * Deletes the account: in one transaction, under the account's row lock (so of two deletions at once one
 * succeeds and the other finds it gone), checks the blockers again, gives up a user's cards when asked,
 * lets each room erase its part, and anonymises the row. Money records stay.
 */
export async function deleteAccount(deps: ProfileDeps, caller: Caller, input: DeleteAccount): Promise<void> {
  const account = await liveAccount(deps, caller.id);
  await assertPassword(deps, account, input.password, caller.ip);
  // A hash of a password nobody knows (argon2 is slow, so before the lock is taken).
  const unusableHash = await hashPassword(randomToken());
  await deps.db.transaction(async (tx) => {
    const locked = await lockLiveAccount(tx, account.id);
    if (!locked) throw new AppError('UNAUTHENTICATED', 'This account has been deleted.');
    const who = deleting(deps, locked);
    const status = await assess(tx, deps.deletionParticipants, who);
    if (status.blockers.length > 0) {
      throw new AppError(
        'ACCOUNT_DELETION_BLOCKED',
        `Your account cannot be deleted yet. ${status.blockers.map((b) => b.message).join(' ')}`,
        { details: { blockers: status.blockers } },
      );
    }
    const cards = status.cardsToGiveUp;
    if (cards.count > 0 && !input.giveUpCards) {
      const total = { amount: cards.total, currency: cards.currency };
      throw new AppError(
        'ACCOUNT_HAS_CARDS',
        `You still have ${cardsWord(cards.count)} worth ${formatMoney(total)}. Use them, send them, or tick 'give them up' to delete anyway.`,
        { details: { count: cards.count, total } },
      );
    }
    for (const participant of deps.deletionParticipants) await participant.erase(tx, who);
    await deleteAccountTokens(tx, locked.id);
    await revokeAllSessions(tx, locked.id);
    await anonymiseAccount(tx, locked.id, {
      ...(await anonymousIdentity(tx, locked)),
      phone: '',
      passwordHash: unusableHash,
    });
  });
}
