import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../../shared/money';
import { withdrawalMessages, type Withdrawal } from '../../../shared/wallet/schemas';
import type { Db, DbOrTx } from '../../db/client';
import type { Config } from '../../env';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { AppError, notFound } from '../../lib/app-error';
import type { WebhookHandler } from '../../plugins/webhooks';
import { ensurePlatformAccount, postEntry } from './ledger.repository';
import { openWallet } from './wallet.service';
import { notificationRecords, notify } from '../notifications/notifications.service';
import type { PayoutProvider, TransferState } from './payouts/payout-provider';
import { assertPin } from './pin.service';
import { hashPin } from './pin-hash';
import { hasPin, toBankAccount, type BankAccountShown } from './wallet.repository';
import {
  callRequestWithdrawal,
  callRequestWithdrawalChecked,
  findWithdrawal,
  findWithdrawalByReference,
  leaseDueWithdrawals,
  listWithdrawals,
  lockWithdrawal,
  updateWithdrawal,
  type WithdrawalCallOutcome,
  type WithdrawalRow,
} from './withdrawals.repository';

export interface WithdrawalDeps {
  db: Db;
  config: Config;
  payouts: PayoutProvider;
  log?: FastifyBaseLogger;
}

function toWithdrawal(
  row: Pick<
    WithdrawalRow,
    'id' | 'amount' | 'currency' | 'status' | 'reference' | 'failureReason' | 'createdAt' | 'completedAt'
  >,
  bank: BankAccountShown,
): Withdrawal {
  return {
    id: row.id,
    amount: { amount: Number(row.amount), currency: row.currency },
    status: row.status,
    reference: row.reference,
    bankAccount: toBankAccount(bank),
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

const money = (amount: bigint | number, currency: string) =>
  formatMoney({ amount: Number(amount), currency });

export interface WithdrawalRequest {
  amount: number;
  pin: string;
  bankAccountId?: string;
}

/**
 * Takes money out of the wallet: the PIN first (wrong tries count toward the lock-out), then in one
 * transaction that holds the wallet's lock: the balance check, the ledger entry (wallet → payouts in
 * flight) and the withdrawal row. The payout itself is a background job, so the request answers at once
 * and a crash cannot lose it. With an Idempotency-Key, a retry gets the first answer and moves nothing.
 * Without one, `sameWithinSeconds` (the old client, which never sends a key) makes an identical request
 * (amount and bank account) within that many seconds of an earlier keyless one answer that one instead.
 *
 * Issue 14: one statement, request_withdrawals_checked (ADR 041), reads the key's first withdrawal, the bank
 * account and the PIN, and in the common case (a live bank account, a PIN typed right with no wrong tries
 * before) writes the withdrawal too. Otherwise it answers `check` with the bank account it read, and the service
 * decides: the missing account, then the PIN (counted, locked), then request_withdrawal as before.
 */
export async function requestWithdrawal(
  deps: WithdrawalDeps,
  businessId: string,
  input: WithdrawalRequest,
  idempotencyKey?: string,
  sameWithinSeconds?: number,
): Promise<{ withdrawal: Withdrawal; replayed: boolean }> {
  const currency = deps.config.CURRENCY;
  if (input.amount < deps.config.WITHDRAWAL_MIN_MINOR) {
    const words = `The smallest withdrawal is ${money(deps.config.WITHDRAWAL_MIN_MINOR, currency)}.`;
    throw new AppError('VALIDATION_FAILED', words, { details: { fieldErrors: { amount: [words] } } });
  }
  const request: Attempt = {
    businessId,
    currency,
    amount: BigInt(input.amount),
    reference: `WD-${randomBytes(10).toString('hex').toUpperCase()}`,
    idempotencyKey: idempotencyKey ?? null,
    fingerprint: `${input.amount}:${input.bankAccountId ?? 'default'}`,
    // The old client, which sends no key: an identical request moments after answers the first one.
    sameWithinSeconds: sameWithinSeconds ?? 0,
  };
  const result = await callRequestWithdrawalChecked(deps.db, {
    ...request,
    bankAccountId: input.bankAccountId ?? null,
    pinHash: hashPin(deps.config.CODE_ENCRYPTION_KEY, businessId, input.pin),
    news: withdrawalNews(request, BANK_MARK),
  });
  const { outcome, bank } = result;
  if (!bank) {
    if (outcome === 'replay') {
      return { withdrawal: await replay(deps, result.id!, request.fingerprint), replayed: true };
    }
    throw input.bankAccountId
      ? notFound('That bank account')
      : new AppError('BANK_ACCOUNT_REQUIRED', 'Add a default bank account before you withdraw.');
  }
  if (outcome !== 'check') return answer(deps, request, { ...result, outcome }, bank);
  await assertPin(deps, businessId, input.pin);
  return answer(deps, request, await callWithBank(deps, request, bank), bank);
}

/** A withdrawal as asked for, before the bank account and the PIN are known to be right. */
interface Attempt {
  businessId: string;
  currency: string;
  amount: bigint;
  reference: string;
  idempotencyKey: string | null;
  fingerprint: string;
  sameWithinSeconds: number;
}

/** Where the news names the bank account, filled in by request_withdrawals_checked (migrations 0021, 0031). */
const BANK_MARK = '{bank}';

/** How the news names a bank account; request_withdrawals_checked writes it the same way. */
function bankLabel(bank: BankAccountShown): string {
  return `${bank.bankName} ••${bank.accountNumber.slice(-4)}`;
}

/** The owner's notification of a withdrawal, naming the bank account as `bank`. */
function withdrawalNews(request: Attempt, bank: string): string {
  return notificationRecords([
    {
      accountId: request.businessId,
      kind: 'withdrawal_status',
      title: 'Withdrawal requested',
      body: `${money(request.amount, request.currency)} is on its way to ${bank}.`,
      link: '/dashboard/wallet',
    },
  ]);
}

/** request_withdrawal once the app has checked the bank account and the PIN. */
function callWithBank(deps: WithdrawalDeps, request: Attempt, bank: BankAccountShown) {
  return callRequestWithdrawal(deps.db, {
    ...request,
    bankAccountId: bank.id,
    news: withdrawalNews(request, bankLabel(bank)),
  });
}

/** The answer to request_withdrawal's outcome (made its accounts first, if it had none). */
async function answer(
  deps: WithdrawalDeps,
  request: Attempt,
  first: {
    outcome: WithdrawalCallOutcome;
    id: string | null;
    balance: bigint | null;
    createdAt: Date | null;
  },
  bank: BankAccountShown,
): Promise<{ withdrawal: Withdrawal; replayed: boolean }> {
  let result = first;
  if (result.outcome === 'no_accounts') {
    await openWithdrawalAccounts(deps.db, request.businessId, request.currency);
    result = await callWithBank(deps, request, bank);
  }
  switch (result.outcome) {
    case 'written': {
      // What was written is the answer: no read back (issue 14).
      const { amount, currency, reference } = request;
      const written = { id: result.id!, amount, currency, status: 'requested' as const, reference };
      return {
        withdrawal: toWithdrawal(
          { ...written, failureReason: null, createdAt: result.createdAt!, completedAt: null },
          bank,
        ),
        replayed: false,
      };
    }
    case 'bank_gone':
      throw notFound('That bank account');
    case 'insufficient':
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `insufficient balance: you can withdraw at most ${money(result.balance!, request.currency)}.`,
        { details: { availableBalance: Number(result.balance!) } },
      );
    case 'same':
    case 'replay':
      return { withdrawal: await replay(deps, result.id!, request.fingerprint), replayed: true };
  }
  throw new Error(`the ledger accounts of ${request.businessId}'s withdrawals are missing after being made`);
}

/**
 * Before a business's (or the currency's) first withdrawal: the accounts request_withdrawal moves money
 * between (made if missing, as any number of callers at once may).
 */
async function openWithdrawalAccounts(db: DbOrTx, businessId: string, currency: string): Promise<void> {
  await openWallet(db, businessId, currency);
  await ensurePlatformAccount(db, 'payouts_in_flight', currency);
}

/** The first answer to a request made again (its key, or the old client's same request moments later). */
async function replay(deps: WithdrawalDeps, id: string, fingerprint: string): Promise<Withdrawal> {
  const found = await findWithdrawal(deps.db, id);
  if (!found) throw notFound('That withdrawal');
  if (found.withdrawal.requestFingerprint !== fingerprint) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different withdrawal.',
    );
  }
  return toWithdrawal(found.withdrawal, found.bank);
}

export async function getWithdrawal(
  deps: WithdrawalDeps,
  businessId: string,
  id: string,
): Promise<Withdrawal> {
  const found = await findWithdrawal(deps.db, id);
  if (!found || found.withdrawal.businessId !== businessId) throw notFound('That withdrawal');
  return toWithdrawal(found.withdrawal, found.bank);
}

export async function listMyWithdrawals(
  deps: WithdrawalDeps,
  businessId: string,
  query: { limit: number; cursor?: string },
) {
  const rows = await listWithdrawals(
    deps.db,
    businessId,
    query.limit + 1,
    query.cursor ? decodeCursor(query.cursor) : undefined,
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((r) => toWithdrawal(r.withdrawal, r.bank)),
    nextCursor:
      rows.length > query.limit
        ? encodeCursor({ cursorTime: page.at(-1)!.cursorTime, id: page.at(-1)!.withdrawal.id })
        : null,
  };
}

/**
 * Applies a transfer's state to its withdrawal, once: paid moves the money from in flight to settled;
 * failed (or reversed before it was paid) puts it back in the wallet; reversed after it was paid takes it
 * back from settled into the wallet. The withdrawal row is locked, so a webhook and the job racing each
 * other (or a webhook delivered many times) change it once; the ledger's unique entry reference
 * `withdrawal:<id>:reversed` keeps the money from coming back twice by any path.
 */
export async function applyTransferState(
  deps: WithdrawalDeps,
  withdrawalId: string,
  state: TransferState,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await lockWithdrawal(tx, withdrawalId);
    if (!row || row.status === 'failed') return;
    if (row.status === 'paid') {
      if (state.status === 'reversed') await reversePaidWithdrawal(tx, row, state.reason);
      return;
    }
    const transferCode = state.transferCode ?? row.providerTransferCode;
    if (state.status === 'pending') {
      if (row.status === 'requested') {
        await updateWithdrawal(tx, row.id, {
          status: 'processing',
          providerTransferCode: transferCode,
          nextAttemptAt: new Date(Date.now() + 1000),
        });
        await notify(tx, [
          {
            accountId: row.businessId,
            kind: 'withdrawal_status',
            title: 'Withdrawal processing',
            body: `Your ${money(row.amount, row.currency)} withdrawal is being sent to your bank.`,
            link: '/dashboard/wallet',
          },
        ]);
      } else {
        await updateWithdrawal(tx, row.id, { nextAttemptAt: new Date(Date.now() + 1000) });
      }
      return;
    }
    const inFlight = await ensurePlatformAccount(tx, 'payouts_in_flight', row.currency);
    if (state.status === 'success') {
      const settled = await ensurePlatformAccount(tx, 'payouts_settled', row.currency);
      await postEntry(tx, {
        kind: 'payout_settled',
        reference: `withdrawal:${row.id}:settled`,
        currency: row.currency,
        postings: [
          { ledgerAccountId: inFlight, amount: -row.amount },
          { ledgerAccountId: settled, amount: row.amount },
        ],
      });
      await updateWithdrawal(tx, row.id, {
        status: 'paid',
        providerTransferCode: transferCode,
        completedAt: new Date(),
        nextAttemptAt: null,
      });
      await notify(tx, [
        {
          accountId: row.businessId,
          kind: 'withdrawal_status',
          title: 'Withdrawal paid',
          body: `${money(row.amount, row.currency)} has been paid into your bank account.`,
          link: '/dashboard/wallet',
          mail: {
            subject: 'Your Giftmart withdrawal has been paid',
            heading: 'Withdrawal paid',
            paragraphs: [
              `${money(row.amount, row.currency)} has been paid into your bank account.`,
              `Reference: ${row.reference}.`,
            ],
            action: { label: 'Open your wallet', path: '/dashboard/wallet' },
          },
        },
      ]);
      return;
    }
    const wallet = await openWallet(tx, row.businessId, row.currency);
    await postEntry(tx, {
      kind: 'payout_reversed',
      reference: `withdrawal:${row.id}:reversed`,
      currency: row.currency,
      postings: [
        { ledgerAccountId: inFlight, amount: -row.amount },
        { ledgerAccountId: wallet, amount: row.amount },
      ],
    });
    await updateWithdrawal(tx, row.id, {
      status: 'failed',
      failureReason: state.reason,
      providerTransferCode: transferCode,
      completedAt: new Date(),
      nextAttemptAt: null,
    });
    await notify(tx, [
      {
        accountId: row.businessId,
        kind: 'withdrawal_status',
        title: 'Withdrawal failed',
        body: `Your ${money(row.amount, row.currency)} withdrawal failed (${state.reason}). The money is back in your wallet.`,
        link: '/dashboard/wallet',
        mail: {
          subject: 'Your Giftmart withdrawal failed',
          heading: 'Withdrawal failed',
          paragraphs: [
            `Your ${money(row.amount, row.currency)} withdrawal failed. ${state.reason}`,
            'The money is back in your wallet. Check the bank account and withdraw again.',
            `Reference: ${row.reference}.`,
          ],
          action: { label: 'Open your wallet', path: '/dashboard/wallet' },
        },
      },
    ]);
  });
}

/**
 * The bank sent a paid withdrawal back (Paystack's transfer.reversed after transfer.success): the money
 * returns from settled payouts to the wallet, and the withdrawal ends `failed` with the reason (ADR 008),
 * which the owner already reads as "not in your bank, back in your wallet, withdraw again".
 */
async function reversePaidWithdrawal(tx: DbOrTx, row: WithdrawalRow, reason: string): Promise<void> {
  const settled = await ensurePlatformAccount(tx, 'payouts_settled', row.currency);
  const wallet = await openWallet(tx, row.businessId, row.currency);
  await postEntry(tx, {
    kind: 'payout_reversed',
    reference: `withdrawal:${row.id}:reversed`,
    currency: row.currency,
    postings: [
      { ledgerAccountId: settled, amount: -row.amount },
      { ledgerAccountId: wallet, amount: row.amount },
    ],
  });
  const failureReason = `${reason} It had been reported as paid; the money is back in your wallet.`;
  await updateWithdrawal(tx, row.id, {
    status: 'failed',
    failureReason,
    completedAt: new Date(),
    nextAttemptAt: null,
  });
  await notify(tx, [
    {
      accountId: row.businessId,
      kind: 'withdrawal_status',
      title: 'Withdrawal reversed',
      body: `The bank sent back your ${money(row.amount, row.currency)} withdrawal. The money is back in your wallet.`,
      link: '/dashboard/wallet',
      mail: {
        subject: 'Your Giftmart withdrawal was reversed',
        heading: 'Withdrawal reversed',
        paragraphs: [
          `The bank sent back your ${money(row.amount, row.currency)} withdrawal after it was paid. ${reason}`,
          'The money is back in your wallet. Check the bank account and withdraw again.',
          `Reference: ${row.reference}.`,
        ],
        action: { label: 'Open your wallet', path: '/dashboard/wallet' },
      },
    },
  ]);
}

/** The payout job: sends due transfers (once per reference) and follows the ones in progress. */
export async function processDueWithdrawals(deps: WithdrawalDeps, limit = 20): Promise<number> {
  const due = await leaseDueWithdrawals(deps.db, limit);
  for (const row of due) {
    try {
      const found = await findWithdrawal(deps.db, row.id);
      const state =
        row.status === 'requested'
          ? await deps.payouts.transfer({
              reference: row.reference,
              amount: row.amount,
              currency: row.currency,
              bankCode: found!.bank.bankCode,
              accountNumber: found!.bank.accountNumber,
              accountName: found!.bank.accountName,
              reason: 'Giftmart wallet withdrawal',
            })
          : await deps.payouts.checkTransfer(row.reference);
      await applyTransferState(deps, row.id, state);
    } catch (error) {
      // Left leased: it is picked up again in 30 s. The reference makes a repeated transfer the same one.
      deps.log?.warn({ err: error, reference: row.reference }, 'payout attempt failed; will retry');
    }
  }
  return due.length;
}

export async function applyTransferEvent(
  deps: WithdrawalDeps,
  reference: string,
  state: TransferState,
): Promise<boolean> {
  const row = await findWithdrawalByReference(deps.db, reference);
  if (!row) return false;
  await applyTransferState(deps, row.id, state);
  return true;
}

/**
 * How long an identical keyless request from the old client (same business, amount and default account)
 * counts as the same withdrawal: long enough for a double click or a client retry, short enough that a
 * deliberate second withdrawal of the same amount a little later goes through.
 */
export const LEGACY_SAME_WITHDRAWAL_SECONDS = 10;

/**
 * The old client's withdrawal: it sent no PIN. A business that has set one must send it (in "pin"); one
 * that has none is refused by the PIN check itself, with the same words as /api/v1. An Idempotency-Key is
 * honoured as on /api/v1; without one, an identical request within LEGACY_SAME_WITHDRAWAL_SECONDS is the
 * same withdrawal.
 */
export async function requestLegacyWithdrawal(
  deps: WithdrawalDeps,
  businessId: string,
  input: { amount: number; pin?: string | undefined },
  idempotencyKey?: string,
) {
  if (!input.pin && (await hasPin(deps.db, businessId))) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Send your 4-digit transaction PIN in the field "pin" to withdraw.',
      {
        details: { fieldErrors: { pin: [withdrawalMessages.pinRequired] } },
      },
    );
  }
  return requestWithdrawal(
    deps,
    businessId,
    { amount: input.amount, pin: input.pin ?? '' },
    idempotencyKey,
    LEGACY_SAME_WITHDRAWAL_SECONDS,
  );
}

/** The wallet's share of the provider's webhook: transfer outcomes (Paystack sends them to the payments URL). */
export function transferWebhookHandler(deps: WithdrawalDeps): WebhookHandler {
  return {
    accept(rawBody, headers) {
      const transfer = deps.payouts.parseWebhook(rawBody, headers);
      if (transfer.type === 'ignored') return null;
      return async (log) => {
        const known = await applyTransferEvent(
          { ...deps, log },
          transfer.reference,
          transfer.type === 'transfer.success'
            ? { status: 'success' }
            : transfer.type === 'transfer.reversed'
              ? { status: 'reversed', reason: transfer.reason }
              : { status: 'failed', reason: transfer.reason },
        );
        if (!known) throw new AppError('NOT_FOUND', 'That withdrawal was not found.');
        return 'transfer-applied';
      };
    },
  };
}

export function startPayoutWorker(deps: WithdrawalDeps, intervalMs = 250): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running
      .then(() => (stopped ? 0 : processDueWithdrawals(deps)))
      .catch((error: unknown) => deps.log?.error({ err: error }, 'payout worker failed'));
  }, intervalMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
