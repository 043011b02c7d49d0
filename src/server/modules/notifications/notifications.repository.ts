import { and, count, desc, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { sqlBuiltOnce, type Db, type DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { mailOutbox, notifications, type MailContentColumn } from '../../db/schema/notifications';

export type { MailContentColumn } from '../../db/schema/notifications';
export type NewNotificationRow = typeof notifications.$inferInsert;
export type NotificationRow = typeof notifications.$inferSelect;
export type NewMailRow = typeof mailOutbox.$inferInsert;
export type MailRow = typeof mailOutbox.$inferSelect;

export async function insertNotifications(db: DbOrTx, rows: NewNotificationRow[]): Promise<void> {
  await db.insert(notifications).values(rows);
}

export async function insertMails(db: DbOrTx, rows: NewMailRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(mailOutbox).values(rows);
}

/**
 * Notifications as the JSON records that jsonb_to_recordset reads (account_id, kind, title, body, link), for a
 * statement or a database function that writes them with its own event (0015's request_withdrawal).
 */
export function notificationRecordsJson(rows: NewNotificationRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      account_id: r.accountId,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link ?? null,
    })),
  );
}

/** A mail to an account's address at the time of the event (an account that is gone gets none). */
export interface AccountMailRow {
  accountId: string;
  kind: string;
  subject: string;
  content: MailContentColumn;
}

/**
 * Notifications and the mails that go with them as CTEs (`noticed`, `mailed`) of a statement that another room
 * writes: issue 14, an event and the news of it in one round trip. Fixed SQL, built once with that statement:
 * `notificationValues` gives the rows as the JSON records its placeholders take.
 */
export const notificationCtes: SQL = sql`
    noticed AS (
      INSERT INTO ${notifications} (account_id, kind, title, body, link)
      SELECT account_id, kind, title, body, link
        FROM jsonb_to_recordset(${sql.placeholder('noticeRecords')}::jsonb)
          AS n(account_id uuid, kind text, title text, body text, link text)),
    mailed AS (
      INSERT INTO ${mailOutbox} (kind, to_address, account_id, subject, content)
      SELECT m.kind, a.email, m.account_id, m.subject, m.content
        FROM jsonb_to_recordset(${sql.placeholder('mailRecords')}::jsonb)
          AS m(account_id uuid, kind text, subject text, content jsonb)
        JOIN ${accounts} a ON a.id = m.account_id)`;

/** `notificationCtes`' values for these notifications and mails. */
export function notificationValues(
  rows: NewNotificationRow[],
  mails: AccountMailRow[],
): Record<string, string> {
  const mailRecords = mails.map((m) => ({
    account_id: m.accountId,
    kind: m.kind,
    subject: m.subject,
    content: m.content,
  }));
  return { noticeRecords: notificationRecordsJson(rows), mailRecords: JSON.stringify(mailRecords) };
}

const notificationsWithMails = sqlBuiltOnce(
  'notifications_with_mails',
  () => sql`WITH ${notificationCtes} SELECT 1`,
);

/**
 * Notifications and the mails that go with them in one statement (issue 14: one round trip instead of three
 * in every sale's transaction).
 */
export async function insertNotificationsWithMails(
  db: DbOrTx,
  rows: NewNotificationRow[],
  mails: AccountMailRow[],
): Promise<void> {
  await notificationsWithMails(db).execute(notificationValues(rows, mails));
}

// ── The account's list ──────────────────────────────────────────────────────────────────────────────────

/** A page of an account's notifications, newest first, after a keyset position (notifications_account_idx). */
export async function listNotifications(
  db: DbOrTx,
  accountId: string,
  limit: number,
  after?: { time: string; id: string },
) {
  return db
    .select({
      notification: notifications,
      cursorTime: sql<string>`to_char(${notifications.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(notifications)
    .where(
      and(
        eq(notifications.accountId, accountId),
        after
          ? sql`(${notifications.createdAt}, ${notifications.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${notifications.createdAt} DESC NULLS LAST`, sql`${notifications.id} DESC NULLS LAST`)
    .limit(limit);
}

/** How many of the account's notifications are unread (the partial index notifications_unread_idx). */
export async function countUnread(db: DbOrTx, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/**
 * Marks the account's unread notifications read: those of `ids` (others' ids match nothing), or all.
 * Read ones keep their first read_at. The rows are locked in id order first, so concurrent mark-reads of
 * one account wait for each other instead of deadlocking, and each sees the other's rows as read.
 */
export async function markNotificationsRead(
  db: DbOrTx,
  accountId: string,
  ids: string[] | 'all',
): Promise<number> {
  const unread = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.accountId, accountId),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids),
      ),
    )
    .orderBy(notifications.id)
    .for('update');
  const marked = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(inArray(notifications.id, unread), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return marked.length;
}

// ── Live changes ────────────────────────────────────────────────────────────────────────────────────────

/** The channel the notifications trigger (migration 0008) announces an account's id on. */
export const NOTIFICATIONS_CHANNEL = 'giftmart_notifications';

// ── The mail outbox ─────────────────────────────────────────────────────────────────────────────────────

/** The ids of up to `limit` due queued mails, oldest due first, locked; rows another worker holds are skipped. */
function dueMails(db: Db, options: { limit: number; onlyTo?: string[] }) {
  return db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'queued'),
        lte(mailOutbox.nextAttemptAt, sql`now()`),
        options.onlyTo ? inArray(mailOutbox.toAddress, options.onlyTo) : undefined,
      ),
    )
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(options.limit)
    .for('update', { skipLocked: true });
}

/**
 * Claims up to `limit` due queued mails in one short statement: rows another worker holds are skipped
 * (SKIP LOCKED), and each claimed row's next_attempt_at moves `leaseMs` ahead (its lease: no other worker
 * takes it meanwhile; if this one dies, the row is due again when the lease ends) and its attempts go up.
 */
export async function claimDueMails(
  db: Db,
  options: { limit: number; leaseMs: number; onlyTo?: string[] },
): Promise<MailRow[]> {
  return db
    .update(mailOutbox)
    .set({
      nextAttemptAt: sql`now() + make_interval(secs => ${options.leaseMs / 1000})`,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(inArray(mailOutbox.id, dueMails(db, options)))
    .returning();
}

/** What a sent mail's row says. */
const SENT = { status: 'sent', sentAt: sql`now()`, lastError: null } as const;

/**
 * Kept mail (no SMTP server: the outbox is the mailbox) has nowhere to go, so a due batch is marked sent in
 * one statement, without a lease or a second write per mail (issue 14: claiming and marking 20 at a time was a
 * tenth of a redemption's statements). Rows another worker holds are skipped. Answers how many were marked.
 */
export async function markDueMailsKept(
  db: Db,
  options: { limit: number; onlyTo?: string[] },
): Promise<number> {
  const marked = await db
    .update(mailOutbox)
    .set({ ...SENT, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, dueMails(db, options)))
    .returning({ id: mailOutbox.id });
  return marked.length;
}

export async function markMailSent(db: Db, id: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set(SENT)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/** A failed try: due again after `retryInMs`, or given up (failed) when `retryInMs` is null. */
export async function markMailFailedAttempt(
  db: Db,
  id: string,
  error: string,
  retryInMs: number | null,
): Promise<void> {
  await db
    .update(mailOutbox)
    .set(
      retryInMs === null
        ? { status: 'failed', lastError: error }
        : { lastError: error, nextAttemptAt: sql`now() + make_interval(secs => ${retryInMs / 1000})` },
    )
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/** The newest mails (the local mailbox), optionally to one address. */
export async function listRecentMails(db: DbOrTx, limit: number, to?: string): Promise<MailRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(to ? eq(mailOutbox.toAddress, to) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}
