import type { Readable } from 'node:stream';
import {
  PLATFORM_TIME_ZONE,
  type RedemptionPage,
  type RedemptionRow,
  type Sale,
  type SalePage,
  type SalesDaily,
  type SalesExportQuery,
  type SalesQuery,
  type SalesSummary,
} from '../../../shared/cards/sales';
import { csvAmount, csvStream, keysetPages } from '../../lib/csv';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { dayRange } from '../../lib/day-range';
import { effectiveStatus, money, type CardsDeps } from './cards.service';
import { listSales, type SaleRow, type SoldCardFilter } from './cards.repository';
import {
  dailyTotals,
  listRedemptions,
  outstandingBalance,
  redeemedTotals,
  soldTotals,
  walletAccountBalance,
  type RedemptionListRow,
} from './sales.repository';

/** The business's sales, redemptions and figures (issue 13). Every figure is a sum over the money rows. */

const LAST4 = /^[A-Z0-9]{4}$/;

/** q: four characters are a code's last four; anything longer is an order reference (GM-…). */
function salesFilter(query: Omit<SalesExportQuery, never>): SoldCardFilter {
  const range = dayRange(query, PLATFORM_TIME_ZONE);
  const q = query.q?.replace(/[\s-]/g, '').toUpperCase();
  const reference = query.q?.replace(/\s/g, '').toUpperCase();
  return {
    soldFrom: range.from,
    soldBefore: range.before,
    giftCardId: query.giftCardId,
    status: query.status,
    last4: q && LAST4.test(q) ? q : undefined,
    orderReference: q && !LAST4.test(q) ? reference : undefined,
  };
}

function toSale(row: SaleRow): Sale {
  const { card } = row;
  return {
    id: card.id,
    soldAt: card.createdAt.toISOString(),
    giftCardId: card.giftCardId,
    designName: row.designName,
    value: money(card.initialValue, card.currency),
    balance: money(card.balance, card.currency),
    status: effectiveStatus(card),
    codeLast4: card.codeLast4,
    buyerName: row.buyerName,
    expiresAt: card.expiresAt?.toISOString() ?? null,
    orderId: card.orderId,
    orderReference: row.orderReference,
  };
}

export async function listMySales(deps: CardsDeps, businessId: string, query: SalesQuery): Promise<SalePage> {
  const filter = salesFilter(query);
  const rows = await listSales(
    deps.db,
    businessId,
    { ...filter, after: query.cursor ? decodeCursor(query.cursor) : undefined },
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toSale),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ cursorTime: last.cursorTime, id: last.card.id })
        : null,
  };
}

const SALES_HEADER = [
  'Sold at',
  'Card id',
  'Design',
  'Value (NGN)',
  'Balance (NGN)',
  'Currency',
  'Status',
  'Code last 4',
  'Buyer',
  'Expires at',
  'Order reference',
];

/** The sales CSV, streamed a keyset page at a time. */
export function exportMySales(deps: CardsDeps, businessId: string, query: SalesExportQuery): Readable {
  const filter = salesFilter(query);
  const pages = keysetPages<SaleRow>((last, size) =>
    listSales(
      deps.db,
      businessId,
      { ...filter, after: last ? { time: last.cursorTime, id: last.card.id } : undefined },
      size,
    ),
  );
  return csvStream(SALES_HEADER, pages, (row) => {
    const sale = toSale(row);
    return [
      sale.soldAt,
      sale.id,
      sale.designName,
      csvAmount(sale.value),
      csvAmount(sale.balance),
      sale.value.currency,
      sale.status,
      sale.codeLast4,
      sale.buyerName,
      sale.expiresAt,
      sale.orderReference,
    ];
  });
}

export async function salesSummary(deps: CardsDeps, businessId: string): Promise<SalesSummary> {
  const currency = deps.config.CURRENCY;
  // One after another: they are small, and a pool connection each would be greedy.
  const outstanding = await outstandingBalance(deps.db, businessId, currency);
  const sold = await soldTotals(deps.db, businessId, currency, PLATFORM_TIME_ZONE);
  const redeemed = await redeemedTotals(deps.db, businessId, currency, PLATFORM_TIME_ZONE);
  return {
    outstanding: money(outstanding, currency),
    soldToday: money(sold.today, currency),
    soldThisMonth: money(sold.month, currency),
    redeemedToday: money(redeemed.today, currency),
    redeemedThisMonth: money(redeemed.month, currency),
    walletBalance: money(await walletAccountBalance(deps.db, businessId, currency), currency),
    timeZone: PLATFORM_TIME_ZONE,
  };
}

export async function salesDaily(deps: CardsDeps, businessId: string, days: number): Promise<SalesDaily> {
  const currency = deps.config.CURRENCY;
  const rows = await dailyTotals(deps.db, businessId, currency, PLATFORM_TIME_ZONE, days);
  return {
    timeZone: PLATFORM_TIME_ZONE,
    days: rows.map((r) => ({
      date: r.date,
      sold: money(r.sold, currency),
      redeemed: money(r.redeemed, currency),
    })),
  };
}

function toRedemptionRow(row: RedemptionListRow): RedemptionRow {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    purchasedCardId: row.purchasedCardId,
    codeLast4: row.codeLast4,
    designName: row.designName,
    amount: money(-row.amount, row.currency),
    balanceAfter: money(row.balanceAfter, row.currency),
    reference: row.reference,
    reversed: row.reversedAt !== null,
    reversedAt: row.reversedAt?.toISOString() ?? null,
  };
}

export async function listMyRedemptions(
  deps: CardsDeps,
  businessId: string,
  query: { from?: string; to?: string; limit: number; cursor?: string },
): Promise<RedemptionPage> {
  const range = dayRange(query, PLATFORM_TIME_ZONE);
  const rows = await listRedemptions(
    deps.db,
    businessId,
    { ...range, after: query.cursor ? decodeCursor(query.cursor) : undefined },
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toRedemptionRow),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ cursorTime: last.cursorTime, id: last.id }) : null,
  };
}

const REDEMPTIONS_HEADER = [
  'Redeemed at',
  'Redemption id',
  'Card id',
  'Design',
  'Code last 4',
  'Amount (NGN)',
  'Balance after (NGN)',
  'Currency',
  'Reference',
  'Reversed',
  'Reversed at',
];

export function exportMyRedemptions(
  deps: CardsDeps,
  businessId: string,
  query: { from?: string; to?: string },
): Readable {
  const range = dayRange(query, PLATFORM_TIME_ZONE);
  const pages = keysetPages<RedemptionListRow>((last, size) =>
    listRedemptions(
      deps.db,
      businessId,
      { ...range, after: last ? { time: last.cursorTime, id: last.id } : undefined },
      size,
    ),
  );
  return csvStream(REDEMPTIONS_HEADER, pages, (row) => {
    const r = toRedemptionRow(row);
    return [
      r.createdAt,
      r.id,
      r.purchasedCardId,
      r.designName,
      r.codeLast4,
      csvAmount(r.amount),
      csvAmount(r.balanceAfter),
      r.amount.currency,
      r.reference,
      r.reversed ? 'yes' : 'no',
      r.reversedAt,
    ];
  });
}

/** The download's name: sales-2026-11-01-2026-11-30.csv, "all" for an open end. */
export function exportFilename(kind: string, query: { from?: string; to?: string }): string {
  return `${kind}-${query.from ?? 'start'}-${query.to ?? 'today'}.csv`;
}
