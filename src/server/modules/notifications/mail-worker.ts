import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import { publicUrl } from '../../lib/public-url';
import { renderMail } from './mail-render';
import {
  claimDueMails,
  markDueMailsKept,
  markMailFailedAttempt,
  markMailSent,
  type MailRow,
} from './notifications.repository';

/** A claimed mail is this one worker's for this long; a worker that dies mid-send frees it when it ends. */
export const MAIL_LEASE_MS = 2 * 60 * 1000;
/** Tries before a mail is given up (failed): 30 s, 1 min, 2 min … apart, about 4 hours in all. */
export const MAIL_MAX_ATTEMPTS = 10;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60 * 1000;
/** Mails per pass: sent one by one under a 2-minute lease, or, kept, only marked sent in one statement. */
const batchOf = (transport: MailTransport) => (transport.kind === 'kept' ? 500 : 20);

/** How long to wait after the `attempts`-th failed try: 30 s × 2^(attempts−1), at most an hour. */
export function mailRetryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<outbox-id@giftmart>`: the same on every try, so a resend after a crash can be recognised. */
  messageId: string;
}

/** Where mail goes: an SMTP server, or nowhere ("kept": it stays in the outbox, which /dev/mailbox shows). */
export interface MailTransport {
  readonly kind: 'smtp' | 'kept';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP_URL's server, or without it the kept transport of the embedded default. */
export function createMailTransport(config: Pick<Config, 'SMTP_URL'>): MailTransport {
  if (!config.SMTP_URL) return { kind: 'kept', send: async () => undefined, close: () => undefined };
  const smtp = nodemailer.createTransport({
    url: config.SMTP_URL,
    // A server that accepts the connection and then says nothing must not hold the worker for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // The message is only what we render: nothing in it may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await smtp.sendMail(mail);
    },
    close: () => smtp.close(),
  };
}

export interface MailDeps {
  db: Db;
  config: Config;
  log?: FastifyBaseLogger;
  /** Defaults to createMailTransport(config), made for the call and closed after it. */
  transport?: MailTransport;
}

export interface SendDueMailsOptions {
  /** Only mail to these addresses (a test sends its own rows on a shared database); production passes none. */
  onlyTo?: string[];
  limit?: number;
}

export interface SendResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

/**
 * One pass over the outbox: claims the due mails (a lease, see claimDueMails) in a short statement of its
 * own, then sends each outside any transaction and records the outcome — sent, or due again after a
 * back-off with the error, or failed after MAIL_MAX_ATTEMPTS tries. Delivery is at least once: a worker
 * that dies after its server accepted a mail sends it again when the lease ends, with the same Message-ID.
 * Kept mail (no SMTP_URL) goes nowhere: a batch is marked sent in one statement (markDueMailsKept).
 * Logs name mails by id only: a mail's words can hold a link with a secret in it.
 */
export async function sendDueMails(deps: MailDeps, options: SendDueMailsOptions = {}): Promise<SendResult> {
  const transport = deps.transport ?? createMailTransport(deps.config);
  const result: SendResult = { claimed: 0, sent: 0, retried: 0, failed: 0 };
  try {
    if (transport.kind === 'kept') {
      const kept = await markDueMailsKept(deps.db, {
        limit: options.limit ?? batchOf(transport),
        onlyTo: options.onlyTo,
      });
      if (kept > 0) deps.log?.info({ kept }, 'kept mail marked sent');
      return { ...result, claimed: kept, sent: kept };
    }
    const due = await claimDueMails(deps.db, {
      limit: options.limit ?? batchOf(transport),
      leaseMs: MAIL_LEASE_MS,
      onlyTo: options.onlyTo,
    });
    result.claimed = due.length;
    const siteUrl = publicUrl(deps.config);
    for (const row of due) result[await sendOne(deps, transport, row, siteUrl)] += 1;
  } finally {
    if (!deps.transport) transport.close();
  }
  return result;
}

async function sendOne(
  deps: MailDeps,
  transport: MailTransport,
  row: MailRow,
  siteUrl: string,
): Promise<'sent' | 'retried' | 'failed'> {
  const log = { mailId: row.id, kind: row.kind, attempts: row.attempts };
  try {
    const rendered = renderMail(row, siteUrl);
    await transport.send({
      from: deps.config.MAIL_FROM,
      to: row.toAddress,
      ...rendered,
      messageId: `<${row.id}@giftmart>`,
    });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'send failed';
    if (row.attempts >= MAIL_MAX_ATTEMPTS) {
      await markMailFailedAttempt(deps.db, row.id, message, null);
      deps.log?.error({ ...log, error: message }, 'mail given up after its last try');
      return 'failed';
    }
    const retryInMs = mailRetryDelayMs(row.attempts);
    await markMailFailedAttempt(deps.db, row.id, message, retryInMs);
    deps.log?.warn({ ...log, error: message, retryInMs }, 'mail not sent; will try again');
    return 'retried';
  }
  await markMailSent(deps.db, row.id);
  deps.log?.info({ ...log, transport: transport.kind }, 'mail sent');
  return 'sent';
}

/**
 * Sends due mail every MAIL_POLL_MS (a full batch is followed at once by the next). Answers a stop
 * function that waits for the pass in progress, like the other workers.
 */
export function startMailWorker(
  deps: MailDeps,
  options: Pick<SendDueMailsOptions, 'onlyTo'> = {},
): () => Promise<void> {
  const transport = deps.transport ?? createMailTransport(deps.config);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    while (!stopped) {
      const { claimed } = await sendDueMails({ ...deps, transport }, options);
      if (claimed < batchOf(transport)) return;
    }
  };
  // While the database is unreachable, wait longer between passes (up to a minute) instead of logging
  // the same error every MAIL_POLL_MS.
  let failures = 0;
  const tick = () => {
    running = pass()
      .then(() => {
        failures = 0;
      })
      .catch((error: unknown) => {
        failures += 1;
        deps.log?.error({ err: error }, 'mail worker pass failed');
      })
      .finally(() => {
        const wait = Math.min(deps.config.MAIL_POLL_MS * 2 ** failures, 60_000);
        if (!stopped) timer = setTimeout(tick, Math.max(wait, deps.config.MAIL_POLL_MS));
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
    transport.close();
  };
}
