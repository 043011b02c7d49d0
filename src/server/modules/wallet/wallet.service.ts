import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Money } from '../../../shared/money';
import { formatMoney } from '../../../shared/money';
import type { Wallet } from '../../../shared/wallet/schemas';
import type { DbOrTx } from '../../db/client';
import type { CoreDeps } from '../../lib/deps';
import { AppError } from '../../lib/app-error';
import { runPeriodically } from '../../lib/periodic';
import { findDefaultBankAccount, hasPin, toBankAccount } from './wallet.repository';
import {
  ensureOwnedLedgerAccount,
  ensurePlatformAccount,
  findEntryPostings,
  foldLedgerBalances,
  ownedAccountBalance,
  postEntry,
  saleEntryCtes,
  saleEntryValues,
} from './ledger.repository';

/**
 * How often each instance folds the ledger's new postings into the balances (ADR 022): each second, so a
 * withdrawal's balance sums at most a second or so of its wallet's postings (ninth session: every 10 s,
 * a busy wallet's read summed hundreds, a tenth of PostgreSQL's time in the withdrawal bench).
 */
export const LEDGER_FOLD_INTERVAL_MS = 1_000;

/**
 * Folds the ledger's postings into the balances now and every `intervalMs` (ADR 022), so reading a balance
 * sums only the postings of the last few seconds, however long the account's history.
 */
export function startLedgerFoldWorker(
  deps: Pick<CoreDeps, 'db'> & { log?: FastifyBaseLogger },
  intervalMs = LEDGER_FOLD_INTERVAL_MS,
): () => Promise<void> {
  return runPeriodically(
    () => foldLedgerBalances(deps.db),
    intervalMs,
    (error) => deps.log?.error({ err: error }, 'ledger fold failed'),
  );
}

/** Every business gets its wallet account when it registers, so sales can credit it without a race. */
export async function openWallet(db: DbOrTx, businessId: string, currency: string): Promise<string> {
  return ensureOwnedLedgerAccount(db, 'business_wallet', businessId, currency);
}

/**
 * The business's wallet account, locked for the rest of the transaction (one statement): money leaves a
 * wallet only under this lock, so two withdrawals (or a refund) cannot both spend the same balance.
 */
export async function lockWallet(tx: DbOrTx, businessId: string, currency: string): Promise<string> {
  return ensureOwnedLedgerAccount(tx, 'business_wallet', businessId, currency, true);
}

export async function walletBalance(db: DbOrTx, businessId: string, currency: string): Promise<Money> {
  const total = await ownedAccountBalance(db, 'business_wallet', businessId, currency);
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('wallet balance beyond safe integer range');
  return { amount: Number(total), currency };
}

/**
 * Paid orders' money, each as one balanced ledger entry: payment clearing → the business's wallet, less the
 * platform fee (→ platform revenue). The reference is unique, so the same order can never be credited twice.
 * The three accounts exist after the first sale, so the entries are CTEs of the statement that completes the
 * sales (issue 14; many at once, ADR 027), finding them itself; when not every sale got its entry (`written`
 * false), `recordFirstSale` creates a sale's accounts and posts it in the same transaction. Fixed SQL, built
 * once with the statement it is part of; `saleEntryValuesOf` gives the sales' values for it.
 */
export const saleEntries: { ctes: SQL; written: SQL } = saleEntryCtes;

export function saleEntryValuesOf(sales: Sale[]): Record<string, unknown[]> {
  return saleEntryValues(sales.map((sale) => ({ ...sale, reference: saleReference(sale) })));
}

export async function recordFirstSale(tx: DbOrTx, sale: Sale): Promise<void> {
  const clearing = await ensurePlatformAccount(tx, 'payment_clearing', sale.currency);
  const revenue = await ensurePlatformAccount(tx, 'platform_revenue', sale.currency);
  const wallet = await openWallet(tx, sale.businessId, sale.currency);
  await postEntry(tx, {
    kind: 'sale',
    reference: saleReference(sale),
    currency: sale.currency,
    postings: [
      { ledgerAccountId: clearing, amount: -sale.amount },
      { ledgerAccountId: wallet, amount: sale.amount - sale.fee },
      { ledgerAccountId: revenue, amount: sale.fee },
    ],
  });
}

export type Sale = { orderId: string; businessId: string; amount: bigint; fee: bigint; currency: string };
const saleReference = (sale: Pick<Sale, 'orderId'>) => `order:${sale.orderId}`;

/** The business's wallet as its Wallet page shows it: balance (from the ledger) and set-up steps. */
export async function getWallet(deps: CoreDeps, businessId: string): Promise<Wallet> {
  const defaultBank = await findDefaultBankAccount(deps.db, businessId);
  return {
    balance: await walletBalance(deps.db, businessId, deps.config.CURRENCY),
    pinSet: await hasPin(deps.db, businessId),
    defaultBankAccount: defaultBank ? toBankAccount(defaultBank) : null,
  };
}

/**
 * Takes a refunded order's money back out of the business's wallet, in the caller's transaction: the exact
 * reverse of the sale's entry (wallet and platform fee back to payment clearing), as one balanced entry.
 * The wallet is locked and must still hold its share (a withdrawal may have taken it); otherwise nothing is
 * written and the refund is refused with the amounts.
 */
export async function recordRefund(
  tx: DbOrTx,
  refund: { orderId: string; businessId: string; currency: string },
): Promise<void> {
  const sale = await findEntryPostings(tx, `order:${refund.orderId}`);
  if (sale.length === 0) throw new Error(`no sale entry for order ${refund.orderId}`);
  const wallet = await lockWallet(tx, refund.businessId, refund.currency);
  const walletShare = sale.find((p) => p.ledgerAccountId === wallet)?.amount ?? 0n;
  const balance = await ownedAccountBalance(tx, 'business_wallet', refund.businessId, refund.currency);
  if (balance < walletShare) {
    const words = (amount: bigint) => formatMoney({ amount: Number(amount), currency: refund.currency });
    throw new AppError(
      'REFUND_NOT_ALLOWED',
      `Your wallet holds ${words(balance)}; refunding this card takes ${words(walletShare)} out of it. Wait for more sales, then try again.`,
      { details: { walletBalance: Number(balance), needed: Number(walletShare) } },
    );
  }
  await postEntry(tx, {
    kind: 'refund',
    reference: `refund:order:${refund.orderId}`,
    currency: refund.currency,
    postings: sale.map((p) => ({ ledgerAccountId: p.ledgerAccountId, amount: -p.amount })),
  });
}
