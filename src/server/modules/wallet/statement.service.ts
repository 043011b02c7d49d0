import type { Readable } from 'node:stream';
import { PLATFORM_TIME_ZONE } from '../../../shared/cards/sales';
import { formatMoney, type Money } from '../../../shared/money';
import type { StatementKind, StatementLine, StatementPage } from '../../../shared/wallet/statement';
import { csvAmount, csvStream } from '../../lib/csv';
import { decodeLedgerCursor, encodeLedgerCursor } from '../../lib/cursor';
import { dayRange } from '../../lib/day-range';
import type { CoreDeps } from '../../lib/deps';
import { listStatement, streamStatement, type StatementRow } from './statement.repository';
import { walletBalance } from './wallet.service';

const KIND_BY_ENTRY: Record<string, StatementKind> = {
  sale: 'sale',
  refund: 'refund',
  withdrawal: 'withdrawal',
  payout_reversed: 'withdrawal_reversed',
};

const toMoney = (amount: string | null, currency: string): Money => ({
  amount: Number(amount ?? 0),
  currency,
});

function describe(row: StatementRow, kind: StatementKind, fee: Money | null): string {
  const order = row.order_reference ? ` (order ${row.order_reference})` : '';
  const withdrawal = row.withdrawal_reference ? ` ${row.withdrawal_reference}` : '';
  switch (kind) {
    case 'sale': {
      const value = row.order_amount ? toMoney(row.order_amount, row.currency) : null;
      if (value && fee) {
        return `Card sold for ${formatMoney(value)}${order}, less the ${formatMoney(fee)} platform fee`;
      }
      return `Card sold${order}`;
    }
    case 'refund':
      return `Card refunded to its buyer${order}: the sale's money taken back`;
    case 'withdrawal':
      return `Withdrawal${withdrawal} to your bank account`;
    case 'withdrawal_reversed':
      return `Withdrawal${withdrawal} did not reach your bank: the money is back in your wallet`;
    default:
      return `Adjustment (${row.entry_kind})`;
  }
}

export function toStatementLine(row: StatementRow): StatementLine {
  const kind = KIND_BY_ENTRY[row.entry_kind] ?? 'adjustment';
  // The platform's share of a sale's entry (a refund gives it back: its fee posting is negative).
  const fee = kind === 'sale' && row.fee !== null ? toMoney(row.fee, row.currency) : null;
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    kind,
    description: describe(row, kind, fee),
    amount: toMoney(row.amount, row.currency),
    fee,
    balanceAfter: toMoney(row.balance_after, row.currency),
    reference: row.entry_reference,
  };
}

export async function getStatement(
  deps: CoreDeps,
  businessId: string,
  query: { from?: string; to?: string; limit: number; cursor?: string },
): Promise<StatementPage> {
  const currency = deps.config.CURRENCY;
  const range = dayRange(query, PLATFORM_TIME_ZONE);
  const rows = await listStatement(
    deps.db,
    businessId,
    currency,
    { ...range, after: query.cursor ? decodeLedgerCursor(query.cursor) : undefined },
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toStatementLine),
    nextCursor:
      rows.length > query.limit && last ? encodeLedgerCursor({ xact: last.cursor_xact, id: last.id }) : null,
    // The balance the lines were counted down from (the same snapshot), or read on its own for no lines.
    balance: rows[0]
      ? toMoney(rows[0].wallet_balance, currency)
      : await walletBalance(deps.db, businessId, currency),
  };
}

const STATEMENT_HEADER = [
  'Date',
  'Line id',
  'Kind',
  'Description',
  'Amount (NGN)',
  'Platform fee (NGN)',
  'Balance after (NGN)',
  'Currency',
  'Reference',
];

export function exportStatement(
  deps: CoreDeps,
  businessId: string,
  query: { from?: string; to?: string },
): Readable {
  const range = dayRange(query, PLATFORM_TIME_ZONE);
  const pages = streamStatement(deps.db, businessId, deps.config.CURRENCY, range);
  return csvStream(STATEMENT_HEADER, pages, (row) => {
    const line = toStatementLine(row);
    return [
      line.createdAt,
      line.id,
      line.kind,
      line.description,
      csvAmount(line.amount),
      line.fee ? csvAmount(line.fee) : null,
      csvAmount(line.balanceAfter),
      line.amount.currency,
      line.reference,
    ];
  });
}
