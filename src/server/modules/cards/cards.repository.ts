import {
  aliasedTable,
  and,
  asc,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  lte,
  sql,
  type SQL,
} from 'drizzle-orm';
import { builtOnce, type DbOrTx } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import { giftCards } from '../../db/schema/catalogue';
import { cardActivities, cardNews, purchasedCards } from '../../db/schema/cards';
import { orders } from '../../db/schema/orders';
import { batchedPerPool } from '../../lib/batch';
import { batchTriesOf, countTriesOf, type Counted, type Limit } from '../../lib/rate-limiter';

/** A card to issue, as `issuedCardCtes` writes it. */
export interface CardToIssue {
  id: string;
  ownerId: string;
  giftCardId: string;
  businessId: string;
  orderId: string;
  amount: bigint;
  currency: string;
  code: { hash: string; ciphertext: string; last4: string };
  validityMonths: number | null;
}

/**
 * New cards as a CTE (`issued_card`) of the statement that completes their sales (issue 14: the sale's writes in
 * one round trip; many sales at once, ADR 027, the values as arrays that `issuedCardValues` fills in, built
 * once with that statement). A card is its own issue (ADR 039): written at its whole value with no activity,
 * it needs no check at commit, and its history shows the issue read from it.
 */
export const issuedCardCtes: SQL = sql`
    issued_card AS (
      INSERT INTO ${purchasedCards} (id, owner_id, gift_card_id, business_id, order_id, initial_value, balance,
                                     currency, code_hash, code_ciphertext, code_last4, expires_at)
      SELECT c.id, c.owner_id, c.gift_card_id, c.business_id, c.order_id, c.amount, c.amount, c.currency,
             c.code_hash, c.code_ciphertext, c.code_last4, now() + make_interval(months => c.validity_months)
        FROM unnest(${sql.placeholder('cardIds')}::uuid[], ${sql.placeholder('cardOwnerIds')}::uuid[],
                    ${sql.placeholder('cardGiftCardIds')}::uuid[],
                    ${sql.placeholder('cardBusinessIds')}::uuid[],
                    ${sql.placeholder('cardOrderIds')}::uuid[], ${sql.placeholder('cardAmounts')}::bigint[],
                    ${sql.placeholder('cardCurrencies')}::text[],
                    ${sql.placeholder('cardCodeHashes')}::text[],
                    ${sql.placeholder('cardCodeCiphertexts')}::text[],
                    ${sql.placeholder('cardCodeLast4s')}::text[],
                    ${sql.placeholder('cardValidityMonths')}::int[])
             AS c(id, owner_id, gift_card_id, business_id, order_id, amount, currency, code_hash,
                  code_ciphertext, code_last4, validity_months))`;

/** `issuedCardCtes`' values for these cards. */
export function issuedCardValues(cards: CardToIssue[]): Record<string, unknown[]> {
  return {
    cardIds: cards.map((c) => c.id),
    cardOwnerIds: cards.map((c) => c.ownerId),
    cardGiftCardIds: cards.map((c) => c.giftCardId),
    cardBusinessIds: cards.map((c) => c.businessId),
    cardOrderIds: cards.map((c) => c.orderId),
    cardAmounts: cards.map((c) => c.amount.toString()),
    cardCurrencies: cards.map((c) => c.currency),
    cardCodeHashes: cards.map((c) => c.code.hash),
    cardCodeCiphertexts: cards.map((c) => c.code.ciphertext),
    cardCodeLast4s: cards.map((c) => c.code.last4),
    cardValidityMonths: cards.map((c) => c.validityMonths),
  };
}

export type CardRow = typeof purchasedCards.$inferSelect;
export type ActivityRow = typeof cardActivities.$inferSelect;
export type NewActivity = typeof cardActivities.$inferInsert;

/**
 * Stamped with the time it is written (clock_timestamp(), not now(): now() is when the transaction began,
 * and a redemption that began first may get the card's lock second), so the card's history, oldest first,
 * is the order the balance changed in.
 */
export async function insertActivity(
  db: DbOrTx,
  row: typeof cardActivities.$inferInsert,
): Promise<ActivityRow> {
  const [created] = await db
    .insert(cardActivities)
    .values({ createdAt: sql`clock_timestamp()`, ...row })
    .returning();
  return created!;
}

/**
 * The read of `findCardAndKeyedActivity` (a redemption that its one statement did not write: the card and
 * this key's activity, to say why or to decide again), built once: its two whole-table selections made
 * drizzle's builder the largest part of a redemption's CPU.
 */
const cardAndKeyedActivity = builtOnce((db) =>
  db
    .select({ card: purchasedCards, keyed: cardActivities })
    .from(sql`(SELECT 1) AS one`)
    .leftJoin(purchasedCards, eq(purchasedCards.codeHash, sql.placeholder('codeHash')))
    .leftJoin(
      cardActivities,
      // No key: `idempotency_key = NULL` matches no activity.
      and(
        eq(cardActivities.actorId, sql.placeholder('actorId')),
        eq(cardActivities.idempotencyKey, sql.placeholder('key')),
      ),
    )
    .prepare('card_and_keyed_activity'),
);

/** A card found by its code's keyed hash (null if none), with the activity this actor already wrote under `key`. */
export async function findCardAndKeyedActivity(
  db: DbOrTx,
  codeHash: string,
  actorId: string,
  key: string | undefined,
): Promise<{ card: CardRow | null; keyed: ActivityRow | null }> {
  const [row] = await cardAndKeyedActivity(db).execute({ codeHash, actorId, key: key ?? null });
  return { card: row?.card ?? null, keyed: row?.keyed ?? null };
}

/**
 * Redemptions in one statement (issue 14), built once, for one till or for many at once (ADR 027: the spends
 * waiting while others run go together, see `spendCardByCode`). For each spend `n`: spends the look-up
 * limits' tries (`tries`, the rate-limiter's `batchTriesOf`), and only when none of its own is over its
 * budget, the code's card belongs to its `actorId`, is active, has not expired and holds its `amount` (null:
 * all of it), locks the card and writes the redemption and its new balance (and `redeemed` at 0); a `key`
 * this actor already used writes nothing (its unique index). The lock re-reads a card that another till
 * changed meanwhile and checks it again, so parallel spends of one card are written one after the other
 * without a second round trip. The cards are locked in the order of their ids, after every rate-limit row,
 * so two such statements cannot wait on each other in a circle. No two spends of one statement share a card
 * or an Idempotency-Key (the batcher keeps them apart); they may share a rate limit, whose tries are counted
 * in the order of `n`. The database's checks (running balance; balance = sum at commit) run as for any other
 * activity. Answers, in the order of `n`, each spend's tries counted and what was written, with the card's
 * fields the receipt shows (null when nothing was: the caller reads the card to say why). Only those few
 * columns come back (ninth session: the card's and a keyed activity's whole rows, for the rare refusal, were
 * a tenth of the app's CPU per redemption in node-postgres' and drizzle's handling of their 35 columns).
 */
const spendByCode = builtOnce((db) => {
  const p = (name: string) => sql.placeholder(name);
  const spends = db.$with('spends', { n: sql<number>`n` }).as(sql`
    SELECT (r.n - 1)::int AS n, r.code_hash, r.actor_id, r.key, r.amount, r.reference, r.request_hash
      FROM unnest(${p('codeHashes')}::text[], ${p('actorIds')}::uuid[], ${p('keys')}::text[],
                  ${p('amounts')}::bigint[], ${p('references')}::text[], ${p('requestHashes')}::text[])
           WITH ORDINALITY AS r(code_hash, actor_id, key, amount, reference, request_hash, n)`);
  const tries = countTriesOf(p('tries'));
  const countedKeys = db.$with('counted_keys', { key: sql<string>`key` }).as(tries.countedKeys);
  const counted = db.$with('counted', { n: sql<number>`n` }).as(tries.counted);
  const spendable = db.$with('spendable', { id: sql<string>`id` }).as(sql`
    SELECT r.n, c.id, c.balance, coalesce(r.amount, c.balance) AS amount, c.currency, c.code_last4, c.status
      FROM spends r JOIN ${purchasedCards} c ON c.code_hash = r.code_hash
     WHERE c.business_id = r.actor_id
       AND c.status = 'active' AND (c.expires_at IS NULL OR c.expires_at > now())
       AND coalesce(r.amount, c.balance) <= c.balance
       AND NOT EXISTS (SELECT 1 FROM counted t WHERE t.n = r.n AND t.hits > t.max)
     ORDER BY c.id
       FOR UPDATE OF c`);
  const written = db.$with('written', { id: sql<string>`id` }).as(sql`
    INSERT INTO ${cardActivities} (purchased_card_id, kind, amount, balance_after, actor_id, reference,
                                   idempotency_key, request_hash, created_at)
    SELECT s.id, 'redeem', -s.amount, s.balance - s.amount, r.actor_id, r.reference, r.key, r.request_hash,
           clock_timestamp()
      FROM spendable s JOIN spends r ON r.n = s.n
    ON CONFLICT (actor_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING id, purchased_card_id, amount, balance_after, created_at, reference`);
  const changed = db.$with('changed', { id: sql<string>`id` }).as(sql`
    UPDATE ${purchasedCards} c
       SET balance = w.balance_after, updated_at = now(),
           status = CASE WHEN w.balance_after = 0 THEN 'redeemed'::purchased_card_status ELSE c.status END
      FROM written w WHERE c.id = w.purchased_card_id
    RETURNING c.id`);
  return db
    .with(spends, countedKeys, counted, spendable, written, changed)
    .select({
      counted: sql<Counted[] | null>`(SELECT json_agg(json_build_object('key', t.key, 'hits', t.hits,
        'retry', t.retry)) FROM counted t WHERE t.n = r.n)`,
      written: sql<SpentRow | null>`(SELECT json_build_object('id', w.id, 'amount', w.amount::text,
        'balance_after', w.balance_after::text, 'created_at', w.created_at, 'reference', w.reference,
        'card_id', s.id, 'currency', s.currency, 'code_last4', s.code_last4, 'status', s.status)
        FROM written w JOIN spendable s ON s.id = w.purchased_card_id WHERE s.n = r.n)`,
    })
    .from(sql`spends r`)
    .orderBy(sql`r.n`)
    .prepare('spend_cards_by_code');
});

interface SpentRow {
  id: string;
  amount: string;
  balance_after: string;
  created_at: string;
  reference: string | null;
  card_id: string;
  currency: string;
  code_last4: string;
  status: CardRow['status'];
}

/** A redemption as `spendByCode` wrote it, with the card's fields its receipt shows (as they were before). */
export interface SpentActivity extends WrittenActivity {
  amount: bigint;
  balanceAfter: bigint;
  card: Pick<CardRow, 'id' | 'currency' | 'codeLast4' | 'status'>;
}

/** One till's spend, as `spendCardByCode` takes it. */
export interface Spend {
  limits: Limit[];
  codeHash: string;
  actorId: string;
  key: string | undefined;
  amount: bigint | null;
  reference: string | null;
  requestHash: string;
}

/** What `spendByCode` answers for one spend. */
export interface Spent {
  counted: Counted[];
  written: SpentActivity | null;
}

/** Many tills' spends in one statement (`spendByCode`), answered in their order. */
export async function spendCardsByCode(db: DbOrTx, spends: Spend[]): Promise<Spent[]> {
  const rows = await spendByCode(db).execute({
    tries: batchTriesOf(spends.map((s) => s.limits)),
    codeHashes: spends.map((s) => s.codeHash),
    actorIds: spends.map((s) => s.actorId),
    keys: spends.map((s) => s.key ?? null),
    amounts: spends.map((s) => (s.amount === null ? null : String(s.amount))),
    references: spends.map((s) => s.reference),
    requestHashes: spends.map((s) => s.requestHash),
  });
  return rows.map(({ counted, written: w }) => ({
    counted: counted ?? [],
    written: w
      ? {
          id: w.id,
          amount: BigInt(w.amount),
          balanceAfter: BigInt(w.balance_after),
          createdAt: new Date(w.created_at),
          reference: w.reference,
          card: { id: w.card_id, currency: w.currency, codeLast4: w.code_last4, status: w.status },
        }
      : null,
  }));
}

/**
 * See `spendByCode`. On the pool, the spend waits for a free run and shares it with the others waiting
 * (ADR 027); inside a transaction it runs at once, alone.
 */
export const spendCardByCode = batchedPerPool<Spend, Spent>((db) => ({
  // One statement cannot write a card twice, nor see its own write of an Idempotency-Key.
  keys: (spend) =>
    spend.key === undefined ? [spend.codeHash] : [spend.codeHash, `${spend.actorId}:${spend.key}`],
  run: (spends) => spendCardsByCode(db, spends),
}));

/** What a spend was decided on: the card as it was read, unlocked. */
export type SeenCard = Pick<CardRow, 'id' | 'balance' | 'status' | 'expiresAt' | 'businessId' | 'codeHash'>;

/** What an activity's write answers: the activity as written. */
export interface WrittenActivity {
  id: string;
  createdAt: Date;
  reference: string | null;
}

/**
 * An activity and the card's new state in one statement: every change of a card's balance or status goes
 * through here. The card's row is changed only when the activity is written: with an Idempotency-Key this
 * actor already used, nothing is written and the answer is undefined (the caller answers with the first
 * request's result). The database's checks (running balance, balance = sum at commit) run as for any other.
 *
 * The card's row must be locked by the caller, unless `seen` is given (issue 14: a spend decided on the card
 * read without a lock, no transaction round trips): then the statement locks it and writes only if it is still
 * as read (balance, status, expiry, business, code), else answers undefined, and the caller reads again and
 * decides again.
 */
export async function writeActivity(
  db: DbOrTx,
  row: NewActivity,
  change: Partial<Pick<CardRow, 'balance' | 'status' | 'blockedReason'>>,
  options: { seen?: SeenCard } = {},
): Promise<WrittenActivity | undefined> {
  const { seen } = options;
  const card = seen
    ? sql`SELECT id FROM ${purchasedCards}
           WHERE id = ${seen.id}::uuid AND balance = ${seen.balance}::bigint
             AND status = ${seen.status}::purchased_card_status
             -- to the millisecond, as the app's Date holds it (PostgreSQL keeps microseconds)
             AND date_trunc('milliseconds', expires_at)
                 IS NOT DISTINCT FROM ${seen.expiresAt?.toISOString() ?? null}::timestamptz
             AND business_id = ${seen.businessId}::uuid AND code_hash = ${seen.codeHash}::text
             FOR UPDATE`
    : sql`SELECT ${row.purchasedCardId}::uuid AS id`;
  const sets = [sql`updated_at = now()`];
  if (change.balance !== undefined) sets.push(sql`balance = ${change.balance}::bigint`);
  if (change.status !== undefined) sets.push(sql`status = ${change.status}::purchased_card_status`);
  if (change.blockedReason !== undefined) sets.push(sql`blocked_reason = ${change.blockedReason}::text`);
  const result = await db.execute<{ id: string; created_at: string; reference: string | null }>(sql`
    WITH card AS (${card}),
    written AS (
      INSERT INTO ${cardActivities} (purchased_card_id, kind, amount, balance_after, actor_id, reference,
                                     reverses_id, idempotency_key, request_hash, created_at)
      SELECT id, ${row.kind}::card_activity_kind, ${row.amount}::bigint, ${row.balanceAfter}::bigint,
             ${row.actorId ?? null}::uuid, ${row.reference ?? null}::text, ${row.reversesId ?? null}::uuid,
             ${row.idempotencyKey ?? null}::text, ${row.requestHash ?? null}::text, clock_timestamp()
        FROM card
      ON CONFLICT (actor_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
      RETURNING id, purchased_card_id, created_at, reference),
    changed AS (
      UPDATE ${purchasedCards} SET ${sql.join(sets, sql`, `)}
        FROM written WHERE ${purchasedCards.id} = written.purchased_card_id
      RETURNING ${purchasedCards.id})
    SELECT id, created_at, reference FROM written`);
  const [written] = result.rows;
  return written && { id: written.id, createdAt: new Date(written.created_at), reference: written.reference };
}

/**
 * A change of a card's state that moves no money (freeze, block, gift sent or returned, expiry): an activity of
 * 0 at the card's balance, and the card's new state, in one statement.
 */
export function writeStateChange(
  tx: DbOrTx,
  card: Pick<CardRow, 'id' | 'balance'>,
  activity: Pick<NewActivity, 'kind' | 'actorId' | 'reference'>,
  change: Parameters<typeof writeActivity>[2],
): Promise<WrittenActivity | undefined> {
  return writeActivity(
    tx,
    { purchasedCardId: card.id, amount: 0n, balanceAfter: card.balance, ...activity },
    change,
  );
}

const cardSelection = {
  card: purchasedCards,
  uniqueId: giftCards.uniqueId,
  colour: giftCards.colour,
  businessName: accounts.name,
  businessLogoKey: accounts.logoKey,
  cursorTime: sql<string>`to_char(${purchasedCards.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  /** Whether the card was ever redeemed (then it can no longer be refunded). */
  everRedeemed: sql<boolean>`EXISTS (SELECT 1 FROM ${cardActivities} WHERE ${cardActivities.purchasedCardId} = ${purchasedCards.id} AND ${cardActivities.kind} = 'redeem')`,
};

export type PurchasedCardRow = Awaited<ReturnType<typeof findPurchasedCard>> & object;

/** One card with its design and business, by id or by its code's keyed hash. */
export async function findPurchasedCard(db: DbOrTx, id: string, by: 'id' | 'codeHash' = 'id') {
  const [row] = await db
    .select(cardSelection)
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(accounts, eq(accounts.id, purchasedCards.businessId))
    .where(eq(by === 'id' ? purchasedCards.id : purchasedCards.codeHash, id));
  return row;
}

/** Which of a holder's cards a My Gift Cards filter keeps (see shared/cards/my-cards.ts). */
export type HeldCardFilter = 'active' | 'used' | 'expired';

const LIVE = sql`${purchasedCards.status} IN ('active', 'frozen', 'blocked', 'gift_pending')`;
const PAST_EXPIRY = sql`(${purchasedCards.expiresAt} IS NOT NULL AND ${purchasedCards.expiresAt} <= now())`;
const HELD_FILTERS: Record<HeldCardFilter, SQL> = {
  active: sql`(${LIVE} AND NOT ${PAST_EXPIRY} AND ${purchasedCards.balance} > 0)`,
  used: sql`((${purchasedCards.status} = 'redeemed' OR ${purchasedCards.balance} = 0) AND ${purchasedCards.status} <> 'void')`,
  expired: sql`(${purchasedCards.balance} > 0 AND (${purchasedCards.status} = 'expired' OR (${LIVE} AND ${PAST_EXPIRY})))`,
};

/**
 * A holder's cards, a keyset page at a time: newest first, or by balance (highest first, then newest),
 * whose cursor carries the balance too.
 */
export async function listPurchasedCards(
  db: DbOrTx,
  ownerId: string,
  query: {
    limit: number;
    filter?: HeldCardFilter;
    sort?: 'newest' | 'balance';
    after?: { time: string; id: string; balance?: bigint };
  },
) {
  const { after } = query;
  const byBalance = query.sort === 'balance';
  const keyset = !after
    ? undefined
    : byBalance
      ? sql`(${purchasedCards.balance}, ${purchasedCards.createdAt}, ${purchasedCards.id}) < (${String(after.balance ?? 0n)}::bigint, ${after.time}::timestamptz, ${after.id}::uuid)`
      : sql`(${purchasedCards.createdAt}, ${purchasedCards.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`;
  return db
    .select(cardSelection)
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(accounts, eq(accounts.id, purchasedCards.businessId))
    .where(
      and(eq(purchasedCards.ownerId, ownerId), query.filter ? HELD_FILTERS[query.filter] : undefined, keyset),
    )
    .orderBy(
      ...(byBalance ? [desc(purchasedCards.balance)] : []),
      sql`${purchasedCards.createdAt} DESC NULLS LAST`,
      sql`${purchasedCards.id} DESC NULLS LAST`,
    )
    .limit(query.limit);
}

export async function listActivities(db: DbOrTx, purchasedCardId: string) {
  return db
    .select()
    .from(cardActivities)
    .where(eq(cardActivities.purchasedCardId, purchasedCardId))
    .orderBy(asc(cardActivities.createdAt), asc(cardActivities.id));
}

const reversal = aliasedTable(cardActivities, 'reversal');
const actor = aliasedTable(accounts, 'actor');

const activitySelection = {
  activity: cardActivities,
  /** The business that acted (redeemed, reversed, blocked, refunded); null for the holder or the system. */
  placeName: sql<string | null>`CASE WHEN ${actor.role} = 'business' THEN ${actor.name} END`,
  reversedAt: reversal.createdAt,
};

export interface ActivityView {
  activity: ActivityRow;
  placeName: string | null;
  reversedAt: Date | null;
}

/** A card's activities with who acted and whether a redemption was reversed; oldest first (or newest). */
export async function listActivityViews(
  db: DbOrTx,
  purchasedCardId: string,
  options: { newestFirst?: boolean; limit?: number } = {},
): Promise<ActivityView[]> {
  const query = db
    .select(activitySelection)
    .from(cardActivities)
    .leftJoin(actor, eq(actor.id, cardActivities.actorId))
    .leftJoin(reversal, eq(reversal.reversesId, cardActivities.id))
    .where(eq(cardActivities.purchasedCardId, purchasedCardId))
    .orderBy(
      ...(options.newestFirst
        ? [desc(cardActivities.createdAt), desc(cardActivities.id)]
        : [asc(cardActivities.createdAt), asc(cardActivities.id)]),
    );
  return options.limit ? await query.limit(options.limit) : await query;
}

/** One activity with its reversal and actor, for a receipt. */
export async function findActivityView(db: DbOrTx, id: string): Promise<ActivityView | undefined> {
  const [row] = await db
    .select(activitySelection)
    .from(cardActivities)
    .leftJoin(actor, eq(actor.id, cardActivities.actorId))
    .leftJoin(reversal, eq(reversal.reversesId, cardActivities.id))
    .where(eq(cardActivities.id, id));
  return row;
}

/** The card a code belongs to (the balance check's look-up; a redemption reads it with findCardAndKeyedActivity). */
export async function findCardByCodeHash(db: DbOrTx, codeHash: string): Promise<CardRow | undefined> {
  const [row] = await db.select().from(purchasedCards).where(eq(purchasedCards.codeHash, codeHash));
  return row;
}

export async function lockCard(tx: DbOrTx, id: string): Promise<CardRow | undefined> {
  const [row] = await tx.select().from(purchasedCards).where(eq(purchasedCards.id, id)).for('update');
  return row;
}

export async function updateCard(
  tx: DbOrTx,
  id: string,
  values: Partial<Pick<CardRow, 'balance' | 'status' | 'blockedReason' | 'expiryRemindedAt'>>,
): Promise<void> {
  await tx
    .update(purchasedCards)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(purchasedCards.id, id));
}

/**
 * Hands a locked card to a new owner with a new code (an accepted gift): the old code's hash is replaced,
 * so a code the previous holder revealed no longer finds the card at any till.
 */
export async function transferCard(
  tx: DbOrTx,
  id: string,
  to: { ownerId: string; codeHash: string; codeCiphertext: string; codeLast4: string },
): Promise<void> {
  await tx
    .update(purchasedCards)
    .set({ ...to, status: 'active', expiryRemindedAt: null, updatedAt: sql`now()` })
    .where(eq(purchasedCards.id, id));
}

export async function findActivityByIdempotencyKey(
  db: DbOrTx,
  actorId: string,
  key: string,
): Promise<ActivityRow | undefined> {
  const [row] = await db
    .select()
    .from(cardActivities)
    .where(and(eq(cardActivities.actorId, actorId), eq(cardActivities.idempotencyKey, key)));
  return row;
}

export async function findActivity(db: DbOrTx, id: string): Promise<ActivityRow | undefined> {
  const [row] = await db.select().from(cardActivities).where(eq(cardActivities.id, id));
  return row;
}

/** What a business's sold cards can be narrowed by (the sold-cards list, the sales table and its CSV). */
export interface SoldCardFilter {
  /** Keyset: only cards sold before this (created_at, id). */
  after?: { time: string; id: string };
  last4?: string;
  orderReference?: string;
  giftCardId?: string;
  /** The status a person sees: "expired" includes live cards past their expiry date. */
  status?: (typeof purchasedCards.$inferSelect)['status'];
  /** Sold at or after / before these instants (ISO). */
  soldFrom?: string;
  soldBefore?: string;
}

const LIVE_STATUSES = ['active', 'frozen', 'blocked', 'gift_pending'] as const;

/**
 * The one WHERE clause of a business's sold cards, used by every list of them (each shape of filter has an
 * index: business + created_at, + status, + design, + last four; an order reference goes through its
 * unique index).
 */
export function soldCardConditions(businessId: string, filter: SoldCardFilter) {
  const { status } = filter;
  const pastExpiry = sql`(${purchasedCards.expiresAt} IS NOT NULL AND ${purchasedCards.expiresAt} <= now())`;
  let statusCondition;
  if (status === 'expired') {
    statusCondition = sql`(${purchasedCards.status} = 'expired' OR (${inArray(purchasedCards.status, [...LIVE_STATUSES])} AND ${pastExpiry}))`;
  } else if (status && (LIVE_STATUSES as readonly string[]).includes(status)) {
    statusCondition = sql`(${purchasedCards.status} = ${status} AND NOT ${pastExpiry})`;
  } else if (status) {
    statusCondition = eq(purchasedCards.status, status);
  }
  return and(
    eq(purchasedCards.businessId, businessId),
    filter.last4 ? eq(purchasedCards.codeLast4, filter.last4) : undefined,
    filter.orderReference
      ? sql`${purchasedCards.orderId} = (SELECT ${orders.id} FROM ${orders} WHERE ${orders.reference} = ${filter.orderReference})`
      : undefined,
    filter.giftCardId ? eq(purchasedCards.giftCardId, filter.giftCardId) : undefined,
    statusCondition,
    filter.soldFrom ? sql`${purchasedCards.createdAt} >= ${filter.soldFrom}::timestamptz` : undefined,
    filter.soldBefore ? sql`${purchasedCards.createdAt} < ${filter.soldBefore}::timestamptz` : undefined,
    filter.after
      ? sql`(${purchasedCards.createdAt}, ${purchasedCards.id}) < (${filter.after.time}::timestamptz, ${filter.after.id}::uuid)`
      : undefined,
  );
}

export const soldCardOrder = [
  // NULLS LAST, as drizzle writes the indexes, so the index gives the order.
  sql`${purchasedCards.createdAt} DESC NULLS LAST`,
  sql`${purchasedCards.id} DESC NULLS LAST`,
] as const;

/** A business's sold cards, newest first, optionally only those whose code ends in `last4`. */
export async function listSoldCards(
  db: DbOrTx,
  businessId: string,
  query: { limit: number; after?: { time: string; id: string }; last4?: string },
) {
  return db
    .select(cardSelection)
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(accounts, eq(accounts.id, purchasedCards.businessId))
    .where(soldCardConditions(businessId, { after: query.after, last4: query.last4 }))
    .orderBy(...soldCardOrder)
    .limit(query.limit);
}

const buyer = aliasedTable(accounts, 'buyer');

/**
 * A page of the sales table: the sold cards with their design, order and buyer's display name (never the
 * e-mail; a deleted account reads "Deleted account"). Same rows and filter as `listSoldCards`.
 */
export function salesQuery(db: DbOrTx, businessId: string, filter: SoldCardFilter, limit: number) {
  return db
    .select({
      card: {
        id: purchasedCards.id,
        giftCardId: purchasedCards.giftCardId,
        orderId: purchasedCards.orderId,
        initialValue: purchasedCards.initialValue,
        balance: purchasedCards.balance,
        currency: purchasedCards.currency,
        status: purchasedCards.status,
        expiresAt: purchasedCards.expiresAt,
        codeLast4: purchasedCards.codeLast4,
        createdAt: purchasedCards.createdAt,
      },
      cursorTime: cardSelection.cursorTime,
      designName: giftCards.uniqueId,
      orderReference: orders.reference,
      buyerName: sql<string>`CASE WHEN ${buyer.deletedAt} IS NOT NULL THEN 'Deleted account' WHEN btrim(${buyer.name}) <> '' THEN ${buyer.name} WHEN ${buyer.username} IS NOT NULL THEN '@' || ${buyer.username} ELSE 'Customer' END`,
    })
    .from(purchasedCards)
    .innerJoin(giftCards, eq(giftCards.id, purchasedCards.giftCardId))
    .innerJoin(orders, eq(orders.id, purchasedCards.orderId))
    .innerJoin(buyer, eq(buyer.id, orders.buyerId))
    .where(soldCardConditions(businessId, filter))
    .orderBy(...soldCardOrder)
    .limit(limit);
}
/** The page's rows (`salesQuery` is exported unawaited so the bench can EXPLAIN what the API runs). */
export async function listSales(db: DbOrTx, businessId: string, filter: SoldCardFilter, limit: number) {
  return salesQuery(db, businessId, filter, limit);
}
export type SaleRow = Awaited<ReturnType<typeof listSales>>[number];

const STILL_LIVE = ['active', 'frozen', 'blocked'] as const;

/** Cards past their expiry that are not marked expired yet, locked and skipped by a concurrent job. */
export async function lockDueExpiries(tx: DbOrTx, limit: number): Promise<CardRow[]> {
  return tx
    .select()
    .from(purchasedCards)
    .where(
      and(
        isNotNull(purchasedCards.expiresAt),
        lte(purchasedCards.expiresAt, sql`now()`),
        inArray(purchasedCards.status, [...STILL_LIVE]),
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Marks the "expires soon" reminder as sent for live cards with a balance that expire within `days`, and
 * answers them: the UPDATE … RETURNING claims each card once, whichever instance runs the job.
 */
export async function claimExpiryReminders(tx: DbOrTx, days: number, limit: number) {
  const due = tx
    .select({ id: purchasedCards.id })
    .from(purchasedCards)
    .where(
      and(
        isNull(purchasedCards.expiryRemindedAt),
        isNotNull(purchasedCards.expiresAt),
        sql`${purchasedCards.expiresAt} > now()`,
        sql`${purchasedCards.expiresAt} <= now() + make_interval(days => ${days})`,
        sql`${purchasedCards.balance} > 0`,
        inArray(purchasedCards.status, ['active', 'frozen']),
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
  return tx
    .update(purchasedCards)
    .set({ expiryRemindedAt: sql`now()` })
    .where(inArray(purchasedCards.id, due))
    .returning({
      id: purchasedCards.id,
      ownerId: purchasedCards.ownerId,
      balance: purchasedCards.balance,
      currency: purchasedCards.currency,
      expiresAt: purchasedCards.expiresAt,
      businessId: purchasedCards.businessId,
    });
}

export async function hasBeenRedeemed(db: DbOrTx, purchasedCardId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: cardActivities.id })
    .from(cardActivities)
    .where(and(eq(cardActivities.purchasedCardId, purchasedCardId), eq(cardActivities.kind, 'redeem')))
    .limit(1);
  return Boolean(row);
}

/** The holder's last freeze or unfreeze of a card (undefined when they never froze it). */
export async function lastFreezeKind(db: DbOrTx, purchasedCardId: string) {
  const [row] = await db
    .select({ kind: cardActivities.kind })
    .from(cardActivities)
    .where(
      and(
        eq(cardActivities.purchasedCardId, purchasedCardId),
        inArray(cardActivities.kind, ['freeze', 'unfreeze']),
      ),
    )
    .orderBy(desc(cardActivities.createdAt), desc(cardActivities.id))
    .limit(1);
  return row?.kind;
}

// ── The holder's news of a use, written after the use commits (ADR 024) ───────────────────────────────────

/** A redemption or reversal whose news to the card's holder is still to be written. */
export interface CardNewsRow {
  kind: 'redeem' | 'reverse';
  /** What left the card (a redemption) or came back to it (a reversal), positive. */
  amount: bigint;
  balanceAfter: bigint;
  card: Pick<CardRow, 'id' | 'ownerId' | 'currency'>;
  /** The business that used or reversed it. */
  place: string;
}

/**
 * Whether any activity but a sale's issue was written since `card_news.through`: the newest one's
 * transaction, one read at the end of the partial index on `xact` (no lock, no write). Then a run takes the
 * news among them and moves `through` past them all, so the probe never steps over a long run of activities
 * that carry no news. As `EXISTS (… WHERE xact >= through)` the planner chose to scan the whole table for a
 * first match (see `ledgerFoldStatement`), four times a second.
 */
export function cardNewsProbe(): SQL {
  return sql`
    SELECT coalesce((SELECT max(a.xact) FROM ${cardActivities} a WHERE a.kind <> 'issue')
                      >= (SELECT through FROM ${cardNews}), false) AS waiting`;
}

export async function cardNewsWaiting(db: DbOrTx): Promise<boolean> {
  const result = await db.execute<{ waiting: boolean }>(cardNewsProbe());
  return result.rows[0]!.waiting;
}

/**
 * Takes the redemptions and reversals whose news is to be written now, and moves `card_news.through` past
 * them, in the caller's transaction (its news is written in the same one, so a rollback takes neither).
 * Only the transactions before the oldest one still running are taken (the xmin of the statement's
 * snapshot, taken after `card_news` is locked), so an activity can never commit behind `through`: each is
 * taken once. Answers undefined when another worker holds `card_news` (`wait`: wait for it instead).
 */
export async function takeCardNews(tx: DbOrTx, wait = false): Promise<CardNewsRow[] | undefined> {
  const locked = await tx.execute<{ through: string }>(
    sql`SELECT through::text AS through FROM ${cardNews} FOR UPDATE ${wait ? sql`` : sql`SKIP LOCKED`}`,
  );
  const from = locked.rows[0]?.through;
  if (from === undefined) return undefined;
  const result = await tx.execute<{
    kind: 'redeem' | 'reverse';
    amount: string;
    balance_after: string;
    card_id: string;
    owner_id: string;
    currency: string;
    place: string;
  }>(sql`
    WITH upto AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xact),
    moved AS (
      UPDATE ${cardNews} SET through = upto.xact FROM upto WHERE through < upto.xact RETURNING through)
    SELECT a.kind, abs(a.amount)::text AS amount, a.balance_after::text AS balance_after, c.id AS card_id,
           c.owner_id, c.currency, coalesce(b.name, '') AS place
      FROM ${cardActivities} a
      JOIN ${purchasedCards} c ON c.id = a.purchased_card_id
      LEFT JOIN ${accounts} b ON b.id = a.actor_id
     WHERE a.kind IN ('redeem', 'reverse') -- implies the partial index's kind <> 'issue'
       AND a.xact >= ${from}::xid8 AND a.xact < (SELECT xact FROM upto)
     ORDER BY a.xact, a.created_at`);
  return result.rows.map((r) => ({
    kind: r.kind,
    amount: BigInt(r.amount),
    balanceAfter: BigInt(r.balance_after),
    card: { id: r.card_id, ownerId: r.owner_id, currency: r.currency },
    place: r.place,
  }));
}
