import { aliasedTable, and, eq, inArray, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { giftCards } from '../../db/schema/catalogue';
import { cardActivities, gifts, purchasedCards } from '../../db/schema/cards';

export type GiftRow = typeof gifts.$inferSelect;
type GiftStatus = GiftRow['status'];

const OPEN: GiftStatus[] = ['scheduled', 'pending'];

export async function insertGift(tx: DbOrTx, row: typeof gifts.$inferInsert): Promise<GiftRow> {
  const [created] = await tx.insert(gifts).values(row).returning();
  return created!;
}

/** The gift, locked for the rest of the transaction: accept, decline, cancel and the job queue here. */
export async function lockGift(tx: DbOrTx, id: string): Promise<GiftRow | undefined> {
  const [row] = await tx.select().from(gifts).where(eq(gifts.id, id)).for('update');
  return row;
}

export async function updateGift(
  tx: DbOrTx,
  id: string,
  values: Omit<PgUpdateSetSource<typeof gifts>, 'id' | 'purchasedCardId' | 'senderId' | 'createdAt'>,
): Promise<void> {
  await tx
    .update(gifts)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(gifts.id, id));
}

const business = aliasedTable(accounts, 'business');
const sender = aliasedTable(accounts, 'sender');

/** When a gift shows in a list: when it was sent (a scheduled one: when it was made). */
const listedAt = sql`coalesce(${gifts.sentAt}, ${gifts.createdAt})`;

const viewSelection = {
  gift: gifts,
  cardOwnerId: purchasedCards.ownerId,
  balance: purchasedCards.balance,
  currency: purchasedCards.currency,
  cardExpiresAt: purchasedCards.expiresAt,
  uniqueId: giftCards.uniqueId,
  colour: giftCards.colour,
  businessName: business.name,
  businessLogoKey: business.logoKey,
  senderName: sender.name,
  /**
   * The card's balance when the gift ended (now, for an open one): what someone who no longer holds the
   * card is shown, so a sender never watches the recipient spend it (nor the recipient the sender). With no
   * activity by then, its whole value: a card is its own issue (ADR 039).
   */
  balanceAtEnd: sql<string | null>`coalesce((
    SELECT ${cardActivities.balanceAfter} FROM ${cardActivities}
    WHERE ${cardActivities.purchasedCardId} = ${gifts.purchasedCardId}
      AND ${cardActivities.createdAt} <= coalesce(${gifts.endedAt}, now())
    ORDER BY ${cardActivities.createdAt} DESC, ${cardActivities.id} DESC LIMIT 1), ${purchasedCards.initialValue})`,
  cursorTime: sql<string>`to_char(${listedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type GiftView = Awaited<ReturnType<typeof selectViews>>[number];

function selectViews(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(viewSelection)
    .from(gifts)
    .innerJoin(purchasedCards, eq(purchasedCards.id, gifts.purchasedCardId))
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(business, eq(business.id, purchasedCards.businessId))
    .innerJoin(sender, eq(sender.id, gifts.senderId))
    .where(where);
}

export async function findGiftView(db: DbOrTx, id: string): Promise<GiftView | undefined> {
  const [row] = await selectViews(db, eq(gifts.id, id));
  return row;
}

/**
 * Gifts addressed to this account by id (a gift to an address with no account is the link's, see
 * recipientAccess). A scheduled gift is the sender's surprise until it is sent, so it is never the
 * recipient's to see.
 */
export function receivedBy(accountId: string): SQL {
  return and(eq(gifts.recipientAccountId, accountId), sql`${gifts.status} <> 'scheduled'`)!;
}

/** The account's gifts, sent, received or both, newest first (by when they were sent), a page at a time. */
export async function listGiftViews(
  db: DbOrTx,
  viewer: { accountId: string; email: string },
  query: {
    direction?: 'sent' | 'received';
    purchasedCardId?: string;
    /** Only gifts in this state (My Gift Cards' "sent": the accepted ones). */
    status?: GiftStatus;
    limit: number;
    after?: { time: string; id: string };
  },
) {
  const sent = eq(gifts.senderId, viewer.accountId);
  const received = receivedBy(viewer.accountId);
  const mine =
    query.direction === 'sent' ? sent : query.direction === 'received' ? received : or(sent, received);
  return selectViews(
    db,
    and(
      mine,
      query.purchasedCardId ? eq(gifts.purchasedCardId, query.purchasedCardId) : undefined,
      query.status ? eq(gifts.status, query.status) : undefined,
      query.after
        ? sql`(${listedAt}, ${gifts.id}) < (${query.after.time}::timestamptz, ${query.after.id}::uuid)`
        : undefined,
    ),
  )
    .orderBy(sql`${listedAt} DESC`, sql`${gifts.id} DESC`)
    .limit(query.limit);
}

/**
 * The next gift the job has to move on, locked, skipping any another instance (or a person) holds:
 * `deliver`: scheduled and due; `end`: pending past its link's expiry, or open on a card that expired.
 * The WHERE is checked again on the row's newest version when the lock is taken, so a gift another
 * transaction just moved on is not picked up twice.
 */
export async function lockNextDueGift(
  tx: DbOrTx,
  work: 'deliver' | 'end',
  skip: string[],
): Promise<GiftRow | undefined> {
  const cardExpired = sql`EXISTS (SELECT 1 FROM ${purchasedCards} WHERE ${purchasedCards.id} = ${gifts.purchasedCardId} AND ${purchasedCards.expiresAt} <= now())`;
  const due =
    work === 'deliver'
      ? and(eq(gifts.status, 'scheduled'), lte(gifts.deliverAt, sql`now()`))
      : or(
          and(eq(gifts.status, 'pending'), lte(gifts.expiresAt, sql`now()`)),
          and(inArray(gifts.status, OPEN), cardExpired),
        );
  const [row] = await tx
    .select()
    .from(gifts)
    .where(and(due, skip.length ? notInArray(gifts.id, skip) : undefined))
    .orderBy(work === 'deliver' ? gifts.deliverAt : gifts.expiresAt)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function findOpenGiftOfCard(db: DbOrTx, purchasedCardId: string): Promise<GiftRow | undefined> {
  const [row] = await db
    .select()
    .from(gifts)
    .where(and(eq(gifts.purchasedCardId, purchasedCardId), inArray(gifts.status, OPEN)));
  return row;
}

export async function findGiftOfOrder(db: DbOrTx, orderId: string): Promise<GiftRow | undefined> {
  const [row] = await db.select().from(gifts).where(eq(gifts.orderId, orderId));
  return row;
}
