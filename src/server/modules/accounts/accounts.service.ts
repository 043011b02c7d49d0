import type { Account, Login, RegisterBusiness, RegisterUser, Role } from '../../../shared/accounts/schemas';
import { messages } from '../../../shared/accounts/schemas';
import type { DbOrTx } from '../../db/client';
import type { CoreDeps } from '../../lib/deps';
import { AppError } from '../../lib/app-error';
import { keyedHash, randomToken } from '../../lib/crypto';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import * as limiter from '../../lib/rate-limiter';
import { notify } from '../notifications/notifications.service';
import { openWallet } from '../wallet/wallet.service';
import {
  findAccountByEmail,
  findAccountById,
  findTakenFields,
  findUserByUsername,
  insertAccount,
  updateLogoKey,
  type AccountRow,
} from './accounts.repository';
import {
  findLiveSessionByTokenHash,
  insertSession,
  revokeSession,
  touchSession,
} from './sessions.repository';
import { SessionCache, type SessionCacheOptions } from './session-cache';
import { cleanUserAgent } from './user-agent';

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Remember me" keeps a session for 30 days; without it the cookie ends with the browser, the row in a day. */
export const REMEMBER_MS = 30 * DAY_MS;
export const BROWSER_SESSION_MS = DAY_MS;
export const BEARER_MS = 30 * DAY_MS;
/** A session's "last seen" is written at most this often. */
const LAST_SEEN_EVERY_MS = 60 * 1000;

export type AuthDeps = CoreDeps;
export type { AccountRow };
export { toAccount } from './accounts.mapper';

declare module '../../plugins/auth' {
  // A resolved session carries the whole account row (resolveToken loads it with the session).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SessionAccount extends AccountRow {}
}

export function findAccount(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  return findAccountById(db, id);
}

export function findAccountByEmailAddress(db: DbOrTx, email: string): Promise<AccountRow | undefined> {
  return findAccountByEmail(db, email);
}

/** The user with this username (any case); businesses have none. */
export function findUserWithUsername(db: DbOrTx, username: string): Promise<AccountRow | undefined> {
  return findUserByUsername(db, username);
}

/** A business's logo now lives at `logoKey` in storage; answers the updated account. */
export function setBusinessLogo(
  db: DbOrTx,
  businessId: string,
  logoKey: string,
): Promise<AccountRow | undefined> {
  return updateLogoKey(db, businessId, logoKey);
}

export interface IssuedSession {
  token: string;
  account: AccountRow;
  expiresAt: Date;
  persistent: boolean;
}

export async function registerBusiness(deps: AuthDeps, input: RegisterBusiness): Promise<AccountRow> {
  await assertUnique(deps, { email: input.email, businessName: input.name });
  const passwordHash = await hashPassword(input.password);
  return withUniqueViolationsExplained(() =>
    deps.db.transaction(async (tx) => {
      const account = await insertAccount(tx, {
        role: 'business',
        name: input.name,
        email: input.email,
        phone: input.phoneNumber,
        passwordHash,
      });
      await openWallet(tx, account.id, deps.config.CURRENCY);
      await notify(tx, [
        welcome(account, 'Design your first gift card and start selling.', '/dashboard/giftcard', [
          'Design your first gift card: choose its value and colour, and it is on sale to every Giftmart user.',
          'Each sale lands in your wallet at once; withdraw it to your bank account whenever you like.',
          'Cashiers redeem a card in Redeem, by typing its code or scanning its QR code.',
        ]),
      ]);
      return account;
    }),
  );
}

export async function registerUser(deps: AuthDeps, input: RegisterUser): Promise<AccountRow> {
  await assertUnique(deps, { email: input.email, username: input.username });
  const passwordHash = await hashPassword(input.password);
  return withUniqueViolationsExplained(() =>
    deps.db.transaction(async (tx) => {
      const account = await insertAccount(tx, {
        role: 'user',
        name: input.name,
        username: input.username,
        email: input.email,
        phone: input.phoneNumber,
        passwordHash,
      });
      await notify(tx, [
        welcome(account, 'Browse gift cards from every business on Giftmart.', '/user-dashboard', [
          'Browse gift cards from every business on Giftmart and buy one in a few taps.',
          'Your cards wait in My Gift Cards with their balance, code and QR code; spend them at the business, or send one to someone.',
        ]),
      ]);
      return account;
    }),
  );
}

/** The seed's welcome message, as every new account's first notification, and a welcome mail. */
function welcome(
  account: { id: string; name: string; role: 'business' | 'user' },
  body: string,
  link: string,
  paragraphs: string[],
) {
  return {
    accountId: account.id,
    kind: 'welcome' as const,
    title: 'Welcome, we are happy to have you onboard',
    body,
    link,
    mail: {
      subject: 'Welcome to Giftmart',
      heading: `Welcome, ${account.name}`,
      paragraphs: ['We are happy to have you onboard.', ...paragraphs],
      action: {
        label: account.role === 'business' ? 'Design a gift card' : 'Browse gift cards',
        path: link,
      },
    },
  };
}

const takenMessages = {
  email: { code: 'EMAIL_TAKEN', field: 'email', message: 'An account with this email already exists.' },
  username: {
    code: 'USERNAME_TAKEN',
    field: 'username',
    message: 'This username is taken. Please choose another.',
  },
  businessName: {
    code: 'BUSINESS_NAME_TAKEN',
    field: 'name',
    message: 'A business with this name already exists.',
  },
} as const;

async function assertUnique(
  deps: AuthDeps,
  fields: { email: string; username?: string; businessName?: string },
): Promise<void> {
  const taken = await findTakenFields(deps.db, fields);
  const problems = (Object.keys(takenMessages) as (keyof typeof takenMessages)[]).filter((k) => taken[k]);
  if (problems.length === 0) return;
  const first = takenMessages[problems[0]!];
  const fieldErrors = Object.fromEntries(
    problems.map((k) => [takenMessages[k].field, [takenMessages[k].message]]),
  );
  throw new AppError(first.code, first.message, { details: { fieldErrors } });
}

/** Two sign-ups racing for the same email pass the pre-check together; the unique index decides. */
async function withUniqueViolationsExplained<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const pgError =
      (error as { cause?: { code?: string; constraint?: string } }).cause ??
      (error as { code?: string; constraint?: string });
    if (pgError.code === '23505') {
      const kind =
        pgError.constraint === 'accounts_username_unique'
          ? takenMessages.username
          : pgError.constraint === 'accounts_business_name_unique'
            ? takenMessages.businessName
            : takenMessages.email;
      throw new AppError(kind.code, kind.message, {
        details: { fieldErrors: { [kind.field]: [kind.message] } },
      });
    }
    throw error;
  }
}

export interface LoginContext {
  ip: string;
  role?: Role;
  kind: 'cookie' | 'bearer';
  /** The User-Agent header, kept (cleaned) with the session for the list of signed-in devices. */
  userAgent?: string | string[];
}

/**
 * Failed password checks, counted per account (or typed identifier) and per IP: logins and a password
 * change's current password spend the same budget, so neither route can be used to guess past the other.
 */
export function loginLimits(config: AuthDeps['config'], accountKey: string, ip: string): limiter.Limit[] {
  return [
    {
      key: `login:account:${accountKey}`,
      max: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    {
      key: `login:ip:${ip}`,
      max: config.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    },
  ];
}

/**
 * Checks an email (or a user's username) and password. Unknown account and wrong password get the same
 * answer in the same time; failures are counted per account and per IP and refused past the limit.
 */
export async function logIn(deps: AuthDeps, input: Login, context: LoginContext): Promise<IssuedSession> {
  const identifier = input.email.trim().toLowerCase();
  const { config, db } = deps;
  const account = identifier.includes('@')
    ? await findAccountByEmail(db, identifier)
    : await findUserByUsername(db, identifier);
  // Counted per account (not per typed identifier), so a user's email and username share one budget.
  const limits = loginLimits(config, account?.id ?? identifier, context.ip);
  // The try is counted before the password is checked (atomically, in one statement), so however many
  // arrive at once at most the limit are ever checked; a right password then gives its try back.
  await limiter.consume(db, limits, 'Too many failed sign-in attempts.');

  const passwordOk = await verifyPassword(account?.passwordHash ?? (await decoyHash()), input.password);
  if (!account || !passwordOk) throw new AppError('INVALID_CREDENTIALS', messages.credentialsWrong);
  await limiter.clear(db, limits[0]!.key);
  await limiter.refund(db, limits.slice(1));

  if (context.role && account.role !== context.role) {
    // Only said after the password was right, so it reveals nothing to someone guessing.
    throw new AppError(
      'FORBIDDEN',
      account.role === 'business'
        ? 'This is a business account. Please log in as a business.'
        : 'This is a user account. Please log in as a user.',
    );
  }
  return createSession(deps, account, context.kind === 'bearer' ? 'bearer' : 'cookie', input.remember, {
    ip: context.ip,
    userAgent: context.userAgent,
  });
}

/** Where a session was made from, for the owner's list of signed-in devices. */
export interface SessionOrigin {
  ip?: string;
  userAgent?: string | string[];
}

export async function createSession(
  deps: AuthDeps,
  account: AccountRow,
  kind: 'cookie' | 'bearer',
  remember: boolean,
  origin: SessionOrigin = {},
): Promise<IssuedSession> {
  const token = randomToken();
  const persistent = kind === 'bearer' || remember;
  const lifetime = kind === 'bearer' ? BEARER_MS : remember ? REMEMBER_MS : BROWSER_SESSION_MS;
  const expiresAt = new Date(Date.now() + lifetime);
  await insertSession(deps.db, {
    tokenHash: keyedHash(deps.config.SESSION_SECRET, token),
    accountId: account.id,
    persistent,
    kind,
    expiresAt,
    userAgent: cleanUserAgent(origin.userAgent),
    ip: origin.ip ? origin.ip.slice(0, 64) : null,
  });
  return { token, account, expiresAt, persistent };
}

export interface ResolvedSession {
  sessionId: string;
  account: AccountRow;
  expiresAt: Date;
  persistent: boolean;
}

/**
 * Turns a session token into its live session, for the auth plugin. Sessions are kept in memory between
 * requests (SessionCache: forgotten on every announced change, read fresh while announcements cannot arrive),
 * so most signed-in requests start without a statement (issue 14).
 */
export function sessionResolver(deps: AuthDeps, log: SessionCacheOptions['log']) {
  const cache = new SessionCache({ db: deps.db, log });
  const resolveToken = async (token: string): Promise<ResolvedSession | null> => {
    if (token.length < 20 || token.length > 100) return null;
    const tokenHash = keyedHash(deps.config.SESSION_SECRET, token);
    const found = await cache.get(tokenHash, () => findLiveSessionByTokenHash(deps.db, tokenHash));
    if (!found) return null;
    // Checked here first so most requests write nothing; the UPDATE's own condition settles races.
    if (Date.now() - found.session.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
      await touchSession(deps.db, found.session.id);
      cache.seen(tokenHash, new Date());
    }
    return {
      sessionId: found.session.id,
      account: found.account,
      expiresAt: found.session.expiresAt,
      persistent: found.session.persistent,
    };
  };
  return { resolveToken, close: () => cache.close() };
}

export async function logOut(deps: AuthDeps, sessionId: string): Promise<void> {
  await revokeSession(deps.db, sessionId);
}

export function sessionView(session: { account: Account; expiresAt: Date; persistent: boolean }) {
  return { account: session.account, expiresAt: session.persistent ? session.expiresAt.toISOString() : null };
}
