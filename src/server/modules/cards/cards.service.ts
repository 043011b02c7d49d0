import { formatCode } from '../../../shared/cards/codes';
import type { PurchasedCard, PurchasedCardDetail, PurchasedCardPage } from '../../../shared/cards/schemas';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { notFound } from '../../lib/app-error';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import type { CoreDeps } from '../../lib/deps';
import { logoUrl } from '../catalogue/catalogue.service';
import {
  findPurchasedCard,
  insertActivity,
  insertPurchasedCard,
  listActivities,
  listPurchasedCards,
  type PurchasedCardRow,
} from './cards.repository';
import type { CodeVault } from './code-vault';

export type { CodeVault };
export { createCodeVault } from './code-vault';

export interface CardsDeps extends CoreDeps {
  codes: CodeVault;
  log?: FastifyBaseLogger;
}

/**
 * Issues a bought card in the caller's transaction: a fresh secret code (only its hash, an encrypted copy
 * and the last four are kept) and the card's first activity. Answers the new card's id.
 */
export async function issueCard(
  tx: DbOrTx,
  codes: CodeVault,
  input: {
    ownerId: string;
    giftCardId: string;
    businessId: string;
    orderId: string;
    amount: bigint;
    currency: string;
  },
): Promise<{ id: string }> {
  const code = codes.generate();
  const card = await insertPurchasedCard(tx, {
    ownerId: input.ownerId,
    giftCardId: input.giftCardId,
    businessId: input.businessId,
    orderId: input.orderId,
    initialValue: input.amount,
    balance: input.amount,
    currency: input.currency,
    codeHash: code.hash,
    codeCiphertext: code.ciphertext,
    codeLast4: code.last4,
  });
  await insertActivity(tx, {
    purchasedCardId: card.id,
    kind: 'issue',
    amount: input.amount,
    balanceAfter: input.amount,
  });
  return { id: card.id };
}

function toPurchasedCard(row: PurchasedCardRow): PurchasedCard {
  const { card } = row;
  const money = (amount: bigint) => ({ amount: Number(amount), currency: card.currency });
  return {
    id: card.id,
    giftCardId: card.giftCardId,
    uniqueId: row.uniqueId,
    businessId: card.businessId,
    businessName: row.businessName,
    brandLogoUrl: logoUrl(row.businessLogoKey),
    colour: row.colour,
    initialValue: money(card.initialValue),
    balance: money(card.balance),
    status: card.status,
    expiresAt: card.expiresAt?.toISOString() ?? null,
    codeLast4: card.codeLast4,
    purchasedAt: card.createdAt.toISOString(),
  };
}

/** Only the owner sees a purchased card; for anyone else it does not exist. */
async function ownedCard(deps: CardsDeps, ownerId: string, id: string): Promise<PurchasedCardRow> {
  const row = await findPurchasedCard(deps.db, id);
  if (!row || row.card.ownerId !== ownerId) throw notFound('That gift card');
  return row;
}

export async function listMyCards(
  deps: CardsDeps,
  ownerId: string,
  query: { limit: number; cursor?: string },
): Promise<PurchasedCardPage> {
  const rows = await listPurchasedCards(
    deps.db,
    ownerId,
    query.limit + 1,
    query.cursor ? decodeCursor(query.cursor) : undefined,
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toPurchasedCard),
    nextCursor:
      rows.length > query.limit
        ? encodeCursor({ cursorTime: page.at(-1)!.cursorTime, id: page.at(-1)!.card.id })
        : null,
  };
}

export async function getMyCard(deps: CardsDeps, ownerId: string, id: string): Promise<PurchasedCardDetail> {
  const row = await ownedCard(deps, ownerId, id);
  const activities = await listActivities(deps.db, id);
  return {
    ...toPurchasedCard(row),
    activities: activities.map((a) => ({
      id: a.id,
      kind: a.kind,
      amount: { amount: Number(a.amount), currency: row.card.currency },
      balanceAfter: { amount: Number(a.balanceAfter), currency: row.card.currency },
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

export async function revealCode(deps: CardsDeps, ownerId: string, id: string): Promise<{ code: string }> {
  const row = await ownedCard(deps, ownerId, id);
  deps.log?.info({ purchasedCardId: id }, 'redemption code revealed to its owner');
  return { code: formatCode(deps.codes.decrypt(row.card.codeCiphertext)) };
}
