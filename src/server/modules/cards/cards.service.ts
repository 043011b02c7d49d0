import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCode, parseCode } from '../../../shared/cards/codes';
import {
  REFUND_WINDOW_DAYS,
  redeemMessages,
  type BalanceCheck,
  type CardActivity,
  type PurchasedCard,
  type PurchasedCardDetail,
  type PurchasedCardPage,
  type PurchasedCardStatus,
  type SoldCard,
} from '../../../shared/cards/schemas';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { consume } from '../../lib/rate-limiter';
import type { CoreDeps } from '../../lib/deps';
import { logoUrl } from '../catalogue/catalogue.service';
import {
  type ActivityView,
  type CardRow,
  findCardByCodeHash,
  findPurchasedCard,
  type HeldCardFilter,
  issuedCardCtes,
  issuedCardValues,
  type CardToIssue,
  listActivityViews,
  listPurchasedCards,
  lockCard,
  type PurchasedCardRow,
  writeStateChange,
} from './cards.repository';
import type { CodeVault } from './code-vault';

export type { CodeVault };
export { createCodeVault } from './code-vault';

export interface CardsDeps extends CoreDeps {
  codes: CodeVault;
  log?: FastifyBaseLogger;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const money = (amount: bigint, currency: string) => ({ amount: Number(amount), currency });

/**
 * What a card's status means now: a live card past its expiry reads "expired" even before the daily job
 * has marked it (and refuses to be spent).
 */
export function effectiveStatus(
  card: Pick<CardRow, 'status' | 'expiresAt'>,
  now = new Date(),
): PurchasedCardStatus {
  const live =
    card.status === 'active' ||
    card.status === 'frozen' ||
    card.status === 'blocked' ||
    card.status === 'gift_pending';
  return live && card.expiresAt && card.expiresAt <= now ? 'expired' : card.status;
}

export function toPurchasedCard(row: PurchasedCardRow): PurchasedCard {
  const { card } = row;
  return {
    id: card.id,
    giftCardId: card.giftCardId,
    uniqueId: row.uniqueId,
    businessId: card.businessId,
    businessName: row.businessName,
    brandLogoUrl: logoUrl(row.businessLogoKey),
    colour: row.colour,
    initialValue: money(card.initialValue, card.currency),
    balance: money(card.balance, card.currency),
    status: effectiveStatus(card),
    expiresAt: card.expiresAt?.toISOString() ?? null,
    codeLast4: card.codeLast4,
    purchasedAt: card.createdAt.toISOString(),
  };
}

export function toCardActivity(view: ActivityView, currency: string): CardActivity {
  const a = view.activity;
  return {
    id: a.id,
    kind: a.kind,
    amount: money(a.amount, currency),
    balanceAfter: money(a.balanceAfter, currency),
    reference: a.reference,
    placeName: view.placeName,
    reversed: view.reversedAt !== null,
    createdAt: a.createdAt.toISOString(),
  };
}

/**
 * A card's history: its activities, oldest first (or the newest `limit`), with its issue. A card sold since
 * migration 0029 is its own issue (ADR 039): the issue is read from the card, its id the card's, when the card
 * has no issue activity (those sold before have one, and it comes with the others).
 */
async function cardHistory(
  db: DbOrTx,
  card: CardRow,
  options: { newestFirst?: boolean; limit?: number } = {},
): Promise<CardActivity[]> {
  const views = await listActivityViews(db, card.id, options);
  const activities = views.map((view) => toCardActivity(view, card.currency));
  const everyActivity = options.limit === undefined || views.length < options.limit;
  if (!everyActivity || views.some((view) => view.activity.kind === 'issue')) return activities;
  const value = money(card.initialValue, card.currency);
  const issue: CardActivity = {
    id: card.id,
    kind: 'issue',
    amount: value,
    balanceAfter: value,
    reference: null,
    placeName: null,
    reversed: false,
    createdAt: card.createdAt.toISOString(),
  };
  return options.newestFirst ? [...activities, issue] : [issue, ...activities];
}

/** Only the owner sees a purchased card; for anyone else it does not exist. */
async function ownedCard(db: DbOrTx, ownerId: string, id: string): Promise<PurchasedCardRow> {
  const row = await findPurchasedCard(db, id);
  if (!row || row.card.ownerId !== ownerId) throw notFound('That gift card');
  return row;
}

/**
 * A bought card to issue: a fresh id (chosen here, so its sale's news can link to it) and secret code (only
 * its hash, an encrypted copy and the last four are kept). `cardsIssued` writes it.
 */
export function cardToIssue(codes: CodeVault, input: Omit<CardToIssue, 'code' | 'id'>): CardToIssue {
  const { hash, ciphertext, last4 } = codes.generate();
  return { ...input, id: randomUUID(), code: { hash, ciphertext, last4 } };
}

/**
 * Bought cards as CTEs of the statement that completes their sales (many at once, ADR 027): each with its
 * expiry (the design's validity from now, if it has one) and no activity (ADR 039: a card is its own issue).
 * Fixed SQL, built once with that statement; `cardsIssuedValues` gives the cards' values for it.
 */
export const cardsIssued: SQL = issuedCardCtes;

export function cardsIssuedValues(cards: CardToIssue[]): Record<string, unknown[]> {
  return issuedCardValues(cards);
}

/**
 * A balance-sorted page's cursor: the newest-first cursor and the last card's balance after a dot (base64url
 * has none), so a cursor of one sort is refused by the other rather than skipping cards.
 */
function decodeCardCursor(cursor: string, sort: 'newest' | 'balance') {
  const [keyset = '', balance, ...rest] = cursor.split('.');
  if (sort === 'newest' && balance === undefined) return decodeCursor(keyset);
  if (sort === 'balance' && rest.length === 0 && balance && /^\d{1,18}$/.test(balance)) {
    return { ...decodeCursor(keyset), balance: BigInt(balance) };
  }
  return decodeCursor('');
}

export async function listMyCards(
  deps: CardsDeps,
  ownerId: string,
  query: { limit: number; cursor?: string; filter?: HeldCardFilter; sort?: 'newest' | 'balance' },
): Promise<PurchasedCardPage> {
  const sort = query.sort ?? 'newest';
  const rows = await listPurchasedCards(deps.db, ownerId, {
    limit: query.limit + 1,
    filter: query.filter,
    sort,
    after: query.cursor ? decodeCardCursor(query.cursor, sort) : undefined,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const keyset = last && encodeCursor({ cursorTime: last.cursorTime, id: last.card.id });
  return {
    items: page.map(toPurchasedCard),
    nextCursor:
      rows.length > query.limit && last
        ? sort === 'balance'
          ? `${keyset}.${last.card.balance}`
          : keyset!
        : null,
  };
}

async function cardDetail(db: DbOrTx, row: PurchasedCardRow): Promise<PurchasedCardDetail> {
  return { ...toPurchasedCard(row), activities: await cardHistory(db, row.card) };
}

export async function getMyCard(deps: CardsDeps, ownerId: string, id: string): Promise<PurchasedCardDetail> {
  return cardDetail(deps.db, await ownedCard(deps.db, ownerId, id));
}

export async function revealCode(deps: CardsDeps, ownerId: string, id: string): Promise<{ code: string }> {
  const row = await ownedCard(deps.db, ownerId, id);
  deps.log?.info({ purchasedCardId: id }, 'redemption code revealed to its owner');
  return { code: formatCode(deps.codes.decrypt(row.card.codeCiphertext)) };
}

/**
 * The holder freezes a card the moment a use they did not make shows up (or unfreezes it): an activity
 * of amount 0 and the new status, under the card's row lock so a redemption in flight finishes first.
 */
export async function setFrozen(
  deps: CardsDeps,
  ownerId: string,
  id: string,
  frozen: boolean,
): Promise<PurchasedCardDetail> {
  await deps.db.transaction(async (tx) => {
    const card = await lockCard(tx, id);
    if (!card || card.ownerId !== ownerId) throw notFound('That gift card');
    const status = effectiveStatus(card);
    if (frozen && status !== 'active') {
      throw new AppError('CARD_STATE_CONFLICT', stateWords(status, 'Only an active card can be frozen.'), {
        details: { status },
      });
    }
    if (!frozen && status !== 'frozen') {
      throw new AppError('CARD_STATE_CONFLICT', 'This card is not frozen.', { details: { status } });
    }
    await writeStateChange(
      tx,
      card,
      { kind: frozen ? 'freeze' : 'unfreeze', actorId: ownerId },
      { status: frozen ? 'frozen' : 'active' },
    );
  });
  return getMyCard(deps, ownerId, id);
}

export function stateWords(status: PurchasedCardStatus, otherwise: string): string {
  switch (status) {
    case 'frozen':
      return 'This card is frozen.';
    case 'blocked':
      return 'This card is blocked by the business that sold it.';
    case 'expired':
      return 'This card has expired.';
    case 'redeemed':
      return 'This card is used up: it has no balance left.';
    case 'void':
      return 'This card was refunded and can no longer be used.';
    case 'gift_pending':
      return 'This card is being sent as a gift: it cannot be used until the gift is accepted or returned.';
    default:
      return otherwise;
  }
}

/**
 * Public balance check: code in, balance and expiry out. Every failure (bad format, wrong check character,
 * unknown code, a refunded card's dead code) gets the same answer.
 */
export async function checkBalance(deps: CardsDeps, code: string, ip: string): Promise<BalanceCheck> {
  await consume(
    deps.db,
    [{ key: `balance-check:ip:${ip}`, max: deps.config.BALANCE_CHECKS_PER_MINUTE_PER_IP, windowSeconds: 60 }],
    'Too many balance checks.',
  );
  const parsed = parseCode(code);
  const card = parsed.ok ? await findCardByCodeHash(deps.db, deps.codes.hash(parsed.body)) : undefined;
  if (!card || card.status === 'void')
    throw new AppError('CARD_CODE_NOT_FOUND', redeemMessages.balanceNotFound);
  return {
    balance: money(card.balance, card.currency),
    status: effectiveStatus(card),
    expiresAt: card.expiresAt?.toISOString() ?? null,
  };
}

/** Until when a business may refund a sold card: never redeemed, not void, within 30 days of the sale. */
export function refundableUntil(row: PurchasedCardRow, now = new Date()): string | null {
  if (row.everRedeemed || row.card.status === 'void') return null;
  const until = new Date(row.card.createdAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
  return until > now ? until.toISOString() : null;
}

/** A sold card as its business sees it: never the code, never the holder's e-mail. */
export async function soldCardView(db: DbOrTx, row: PurchasedCardRow): Promise<SoldCard> {
  return {
    ...toPurchasedCard(row),
    recentActivities: await cardHistory(db, row.card, { newestFirst: true, limit: 5 }),
    refundableUntil: refundableUntil(row),
  };
}

/** The business's view of one of its sold cards; anyone else's card does not exist for it. */
export async function getSoldCard(db: Db | DbOrTx, businessId: string, id: string): Promise<SoldCard> {
  const row = await findPurchasedCard(db, id);
  if (!row || row.card.businessId !== businessId) throw notFound('That gift card');
  return soldCardView(db, row);
}
