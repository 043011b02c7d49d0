import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  giftCardPageSchema,
  type BusinessProfile,
  type GiftCard,
  type GiftCardPage,
} from '../../../shared/catalogue/schemas';
import type { DbOrTx } from '../../db/client';
import type { CoreDeps } from '../../lib/deps';
import { AppError, notFound } from '../../lib/app-error';
import { perOwner } from '../../lib/batch';
import { BoundedMap } from '../../lib/bounded-map';
import { runPeriodically } from '../../lib/periodic';
import { findAccount } from '../accounts/accounts.service';
import {
  countGiftCards,
  findBusinessIdsByName,
  findGiftCard,
  foldSoldCounts,
  soldCountsAddedCte,
  insertGiftCard,
  listGiftCards,
  setOnSale,
  type GiftCardWithBusiness,
} from './catalogue.repository';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import type { Storage } from './storage';
import { makeUniqueId } from './unique-id';
import { invalidateCatalogueCaches, type CatalogueCache } from './catalogue-cache';
import type { PreparedBody } from '../../lib/prepared-body';

export { CatalogueCache } from './catalogue-cache';

export type CardDeps = CoreDeps;

export interface CatalogueDeps extends CoreDeps {
  storage: Storage;
}

export type { GiftCardWithBusiness };

/**
 * What a buyer's order needs of a design: what never changes once it exists (its business, price and
 * validity), and its business's name and whether it is on sale as last read.
 */
export interface DesignForSale {
  id: string;
  businessId: string;
  amount: bigint;
  currency: string;
  validityMonths: number | null;
  businessName: string;
  onSale: boolean;
}

/** The designs on sale this instance has read for orders, per pool (issue 14). */
const designsForSale = perOwner(() => new BoundedMap<string, DesignForSale>({ maxEntries: 10_000 }));

/**
 * A design as a buyer's order needs it (undefined when there is none). A design on sale is remembered once
 * read (issue 14: every order read its design), so an order may be made from what an earlier read said: the
 * orders' insert then writes only while the design is still on sale and as remembered (ADR 030), and
 * otherwise the caller asks again with `fresh`, which reads it.
 */
export async function findGiftCardForSale(
  db: DbOrTx,
  id: string,
  options: { fresh?: boolean } = {},
): Promise<DesignForSale | undefined> {
  const remembered = designsForSale(db);
  const known = options.fresh ? undefined : remembered.get(id);
  if (known) return known;
  const row = await findGiftCard(db, id);
  if (!row) return undefined;
  const { businessId, amount, currency, validityMonths, businessName, onSale } = row;
  const design = { id: row.id, businessId, amount, currency, validityMonths, businessName, onSale };
  if (onSale) remembered.set(id, design);
  else remembered.delete(id);
  return design;
}

/**
 * Adds sales to their gift cards' sold counts, as a part of the orders room's statement that completes a batch
 * of sales (issue 14): one row per card named by that statement's CTE `counted` (gift_card_id, sales) in
 * `gift_card_sales`, not an update of the card's row, so sales of one card never wait for each other (ADR 031).
 * A card's sold count counts them at once; its catalogue tiles and "best-selling" order show them from the next
 * fold (`startSoldCountFoldWorker`), within about a second.
 */
export function soldCountsAdded(): SQL {
  return soldCountsAddedCte();
}

/**
 * How often each instance folds the new sales into their cards' sold counts (ADR 031): each second, so a
 * catalogue page is at most about a second behind the sales, and its pages are dropped (on every instance)
 * at most once a second while cards sell, where every sale's statement dropped them before.
 */
export const SOLD_COUNT_FOLD_INTERVAL_MS = 1_000;

/** Folds the sales into the sold counts once; this instance's catalogue pages are read again when it did. */
export async function foldSales(db: DbOrTx): Promise<number> {
  const cards = await foldSoldCounts(db);
  if (cards > 0) invalidateCatalogueCaches();
  return cards;
}

/** Folds the new sales into their cards' sold counts now and every `intervalMs` (ADR 031). */
export function startSoldCountFoldWorker(
  deps: Pick<CoreDeps, 'db'> & { log?: FastifyBaseLogger },
  intervalMs = SOLD_COUNT_FOLD_INTERVAL_MS,
): () => Promise<void> {
  return runPeriodically(
    () => foldSales(deps.db),
    intervalMs,
    (error) => deps.log?.error({ err: error }, 'sold count fold failed'),
  );
}

export function logoUrl(key: string | null): string | null {
  return key ? `/uploads/${key}` : null;
}

export function toGiftCard(row: GiftCardWithBusiness): GiftCard {
  return {
    id: row.id,
    uniqueId: row.uniqueId,
    businessId: row.businessId,
    businessName: row.businessName,
    brandLogoUrl: logoUrl(row.businessLogoKey),
    amount: { amount: Number(row.amount), currency: row.currency },
    colour: row.colour,
    onSale: row.onSale,
    soldCount: row.soldCount,
    validityMonths: row.validityMonths,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Creates a card for the signed-in business; a rare uniqueId collision is retried with fresh randomness. */
export async function createGiftCard(
  deps: CardDeps,
  businessId: string,
  input: { amount: number; colour: string; validityMonths?: number | null | undefined },
): Promise<GiftCard> {
  const business = await findAccount(deps.db, businessId);
  if (!business || business.role !== 'business') throw notFound('That business');
  for (let attempt = 0; ; attempt += 1) {
    try {
      const row = await insertGiftCard(deps.db, {
        businessId,
        uniqueId: makeUniqueId(business.name),
        amount: BigInt(input.amount),
        currency: deps.config.CURRENCY,
        colour: input.colour,
        validityMonths: input.validityMonths ?? null,
      });
      invalidateCatalogueCaches();
      return toGiftCard({
        ...row,
        businessName: business.name,
        businessLogoKey: business.logoKey,
        cursorTime: '',
      });
    } catch (error) {
      const pgError = (error as { cause?: { code?: string; constraint?: string } }).cause;
      if (pgError?.code === '23505' && pgError.constraint === 'gift_cards_unique_id_unique' && attempt < 5)
        continue;
      throw error;
    }
  }
}

export async function getGiftCard(deps: CardDeps, id: string): Promise<GiftCard> {
  const row = await findGiftCard(deps.db, id);
  if (!row) throw notFound('That gift card');
  return toGiftCard(row);
}

export interface CatalogueQuery {
  cursor?: string;
  limit: number;
  q?: string;
  businessId?: string;
}

/** The public catalogue: every business's cards on sale, newest first, a page at a time. */
export async function listCatalogue(deps: CardDeps, query: CatalogueQuery): Promise<GiftCardPage> {
  const search = query.q?.trim();
  const businessIds = search ? await findBusinessIdsByName(deps.db, search, 500) : undefined;
  const rows = await listGiftCards(deps.db, {
    limit: query.limit + 1,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    businessId: query.businessId,
    businessIds,
    onSaleOnly: true,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toGiftCard),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/**
 * The catalogue page as bytes ready to send (issue 14): from the cache when it has it, else read, checked
 * against the API's schema (as the serializer would) and kept. Same query, same bytes, same ETag. The
 * request's URL is remembered with its page, so the next request for it is answered by `cache.keptFor`
 * before its query is read again.
 */
export async function catalogueResponse(
  deps: CardDeps,
  cache: CatalogueCache,
  query: CatalogueQuery,
  url: string,
): Promise<PreparedBody> {
  const key = JSON.stringify([
    query.limit,
    query.cursor ?? '',
    query.q?.trim() ?? '',
    query.businessId ?? '',
  ]);
  const page = await cache.get(key, async () =>
    JSON.stringify(giftCardPageSchema.parse(await listCatalogue(deps, query))),
  );
  cache.remember(url, key);
  return page;
}

/** A business's own cards, stopped ones included (only that business may ask). */
export async function listOwnCards(
  deps: CardDeps,
  businessId: string,
  query: { cursor?: string; limit: number; sort: 'newest' | 'best-selling' },
): Promise<GiftCardPage> {
  if (query.sort === 'best-selling' && query.cursor) {
    throw new AppError('VALIDATION_FAILED', 'Best-selling lists have one page; leave out the cursor.');
  }
  const rows = await listGiftCards(deps.db, {
    limit: query.limit + 1,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    businessId,
    onSaleOnly: false,
    orderBy: query.sort,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toGiftCard),
    nextCursor:
      query.sort === 'newest' && rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
    total: await countGiftCards(deps.db, businessId, false),
  };
}

/** Stop or resume selling a card. Only its business may; cards already bought are not touched. */
export async function changeOnSale(
  deps: CardDeps,
  businessId: string,
  cardId: string,
  onSale: boolean,
): Promise<GiftCard> {
  const card = await findGiftCard(deps.db, cardId);
  if (!card) throw notFound('That gift card');
  if (card.businessId !== businessId)
    throw new AppError('FORBIDDEN', 'You can only change your own gift cards.');
  await setOnSale(deps.db, cardId, onSale);
  invalidateCatalogueCaches();
  return toGiftCard({ ...card, onSale });
}

export async function businessProfile(deps: CardDeps, businessId: string): Promise<BusinessProfile> {
  const business = await findAccount(deps.db, businessId);
  if (!business || business.role !== 'business') throw notFound('That business');
  return {
    id: business.id,
    name: business.name,
    logoUrl: logoUrl(business.logoKey),
    cardCount: await countGiftCards(deps.db, businessId, true),
  };
}

export async function countOwnCards(deps: CardDeps, businessId: string): Promise<number> {
  return countGiftCards(deps.db, businessId, false);
}
