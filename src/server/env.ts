import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_CURRENCY } from '../shared/money';
import { DEFAULT_SUPPORT_EMAIL } from '../shared/public-config';

/** A yes/no setting: true/1 or false/0; unset or empty is `fallback`. */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .default('')
    .transform((v) => (v === '' ? fallback : v === 'true' || v === '1'));

const secret = z.string().min(32, 'must be at least 32 characters');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  EMBEDDED_PG_PORT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(65535)
    .refine((p) => p !== 5432, 'must not be 5432 (the usual system PostgreSQL)')
    .optional(),
  /**
   * Connections to PostgreSQL the server may hold (requests and workers share them). Issue 14's profile: at
   * 10, 32 buyers waited longer for a connection than for their statements; 20 lets more transactions share
   * one commit's flush while staying far below PostgreSQL's 100.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  /**
   * How many statements of one kind (redemptions, withdrawals, orders, sales) each instance runs at once;
   * the requests that arrive meanwhile wait and go together in the next one (ADR 027). One made the most of
   * two cores shared with PostgreSQL; a PostgreSQL with many more cores than app instances may want more.
   */
  DATABASE_BATCHES_IN_FLIGHT: z.coerce.number().int().min(1).max(32).default(1),
  /**
   * Milliseconds a request waits for others of its kind before its statement starts, when no statement of
   * its kind is running but one ended less than 10 ms ago (ADR 032): a busy instance's statements then carry
   * more requests each; a quiet one's requests still go at once. 0: never wait.
   */
  DATABASE_BATCH_GATHER_MS: z.coerce.number().int().min(0).max(20).default(1),
  /**
   * Statements go to PostgreSQL as named prepared statements (db/statement-names.ts): off only for a pooler
   * that cannot keep them per connection.
   */
  DATABASE_PREPARED_STATEMENTS: flag(true),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Folder of the built web app; defaults to dist/web beside the built server. */
  WEB_DIST: z.string().min(1).optional(),
  SESSION_SECRET: secret.optional(),
  CODE_ENCRYPTION_KEY: secret.optional(),
  TRUSTED_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.url({ error: 'must be a comma-separated list of origins like https://giftmart.example' })),
    ),
  /**
   * Which X-Forwarded-For hops to believe: `false`, a hop count (`1` = the one proxy in front), or the proxies'
   * addresses/CIDRs. Not `true`: that takes the leftmost address, which any client can write (issue 12).
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx): TrustProxy => {
      const value = v.trim();
      if (value === 'false' || value === '0') return false;
      if (value === 'true') {
        ctx.addIssue({
          code: 'custom',
          message:
            'true would trust the leftmost X-Forwarded-For address, which clients can forge; give the number of proxies in front (e.g. 1) or their addresses',
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(value)) return Number(value);
      const proxies = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = proxies.filter((p) => !isProxyAddress(p));
      if (proxies.length === 0 || bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be false, a hop count such as 1, or a comma-separated list of proxy addresses/CIDRs (not: ${bad.join(', ')})`,
        });
        return z.NEVER;
      }
      return proxies;
    }),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as NGN')
    .default(DEFAULT_CURRENCY),
  SUPPORT_EMAIL: z.email().default(DEFAULT_SUPPORT_EMAIL),
  GIFT_CARD_MAX_AMOUNT_MINOR: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .default(100_000_000),
  LOGO_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  /** Base address the payment provider sends buyers back to and webhooks to (default http://127.0.0.1:PORT). */
  PUBLIC_URL: z.url().optional(),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
  /** The sandbox issues real codes for test cards and marks withdrawals paid; production refuses it unless this is set. */
  ALLOW_SANDBOX_IN_PRODUCTION: flag(false),
  PAYSTACK_SECRET_KEY: z.string().min(1).optional(),
  /** Platform fee on each sale in basis points (100 = 1 %). */
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** How long the sandbox provider waits before it sends its webhook, like a real provider's delay. */
  SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(300),
  /** Smallest withdrawal, in minor units (100000 = ₦1,000.00). */
  WITHDRAWAL_MIN_MINOR: z.coerce.number().int().positive().default(100_000),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Code look-ups (till look-up and redemption) a business may make per minute, and per IP address. */
  CODE_LOOKUPS_PER_MINUTE_PER_ACCOUNT: z.coerce.number().int().min(1).default(30),
  CODE_LOOKUPS_PER_MINUTE_PER_IP: z.coerce.number().int().min(1).default(100),
  /** Public balance checks per minute per IP address. */
  BALANCE_CHECKS_PER_MINUTE_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Where mail goes out (smtp:// or smtps://, user and password in the URL); unset keeps mail in /dev/mailbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(/^([^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
      error: 'must be an address such as Giftmart <no-reply@giftmart.ng>',
    })
    .default('Giftmart <no-reply@giftmart.ng>'),
  /** How often the mail worker looks for due mail in the outbox. */
  MAIL_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
});

/** What Fastify's trustProxy takes: no proxy, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

/** An IP address, a CIDR, or one of proxy-addr's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', bits, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return isIP(bits) === version; // address/netmask
  return Number(bits) <= (version === 4 ? 32 : 128);
}

export type RawEnv = z.infer<typeof envSchema>;
export interface Config extends Omit<RawEnv, 'SESSION_SECRET' | 'CODE_ENCRYPTION_KEY'> {
  SESSION_SECRET: string;
  CODE_ENCRYPTION_KEY: string;
  DATA_DIR: string;
}

export class ConfigError extends Error {}

/**
 * Reads and checks the environment. In development and tests, the secrets production must set are made once
 * and kept in DATA_DIR/secrets.json so sessions survive a restart; in production a missing one stops start-up.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // An empty value (`SESSION_SECRET=` in .env) means "not set", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration (see .env.example):\n  ${lines.join('\n  ')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  if (env.PAYMENT_PROVIDER === 'paystack' && !env.PAYSTACK_SECRET_KEY) {
    throw new ConfigError('Invalid configuration: PAYMENT_PROVIDER=paystack needs PAYSTACK_SECRET_KEY.');
  }
  if (env.NODE_ENV === 'production') {
    const missing = (['SESSION_SECRET', 'CODE_ENCRYPTION_KEY'] as const).filter((k) => !env[k]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration: ${missing.join(' and ')} must be set in production (32+ random characters each).`,
      );
    }
    if (!env.PUBLIC_URL) {
      throw new ConfigError(
        'Invalid configuration: PUBLIC_URL must be set in production (the address buyers and webhooks come back to, e.g. https://giftmart.example).',
      );
    }
    if (env.PAYMENT_PROVIDER === 'sandbox' && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
      throw new ConfigError(
        'Invalid configuration: PAYMENT_PROVIDER is sandbox (the default) in production: test cards would issue real codes and withdrawals would be marked paid. Set PAYMENT_PROVIDER=paystack with PAYSTACK_SECRET_KEY, or ALLOW_SANDBOX_IN_PRODUCTION=true for a demo or benchmark.',
      );
    }
    return { ...env, DATA_DIR: dataDir } as Config;
  }
  let generated: ReturnType<typeof developmentSecrets>;
  try {
    generated = developmentSecrets(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(
      `DATA_DIR (${dataDir}) is not a writable folder (${code}). Point DATA_DIR at one, or set the secrets.`,
    );
  }
  return {
    ...env,
    DATA_DIR: dataDir,
    SESSION_SECRET: env.SESSION_SECRET ?? generated.SESSION_SECRET,
    CODE_ENCRYPTION_KEY: env.CODE_ENCRYPTION_KEY ?? generated.CODE_ENCRYPTION_KEY,
  };
}

type Secrets = { SESSION_SECRET: string; CODE_ENCRYPTION_KEY: string };

function developmentSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  mkdirSync(dataDir, { recursive: true });
  return keepSecretsOnce(file, {
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    CODE_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
  });
}

/**
 * Keeps `secrets` in `file` unless it already exists, and answers the secrets kept there. They are written
 * whole under another name, then linked into place, which fails if the file exists: of processes starting
 * at once on a new DATA_DIR (test workers, two instances) one writes and all use its secrets. Before, each
 * wrote its own and the last write won, so a session made by one was refused by another.
 */
export function keepSecretsOnce(file: string, secrets: Secrets): Secrets {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  try {
    linkSync(draft, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}
