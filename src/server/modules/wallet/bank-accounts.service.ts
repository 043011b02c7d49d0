import type { Db, DbOrTx } from '../../db/client';
import type { Config } from '../../env';
import { AppError, notFound } from '../../lib/app-error';
import { consume, type Limit } from '../../lib/rate-limiter';
import type { BankAccount } from '../../../shared/wallet/schemas';
import {
  bankAccountMessages,
  checkBankAccount,
  sameAccountName,
  type CreateBankAccountInput,
  type ResolveBankAccountInput,
  type ResolvedBankAccount,
  type SetDefaultBankAccountInput,
} from '../../../shared/wallet/bank-accounts';
import type { Bank } from '../../../shared/wallet/banks';
import { notify } from '../notifications/notifications.service';
import type { PayoutProvider } from './payouts/payout-provider';
import { assertPin } from './pin.service';
import { toBankAccount } from './wallet.repository';
import * as repo from './bank-accounts.repository';

export interface BankAccountDeps {
  db: Db;
  config: Config;
  payouts: PayoutProvider;
}

/**
 * Each lookup asks the bank for a person's name, so it is budgeted per business: enough to add several
 * accounts with typos, too few to trawl account numbers for names.
 */
const lookupLimit = (businessId: string): Limit => ({
  key: `bank-resolve:business:${businessId}`,
  max: 30,
  windowSeconds: 60 * 60,
});

/** The bank and number checked before any provider call: unknown bank or bad check digit → 400. */
function checkedBank(input: ResolveBankAccountInput): Bank {
  const result = checkBankAccount(input.bankCode, input.accountNumber);
  if (result.ok) return result.bank;
  throw new AppError('VALIDATION_FAILED', result.message, {
    details: { fieldErrors: { [result.field]: [result.message] } },
  });
}

async function lookUp(
  deps: BankAccountDeps,
  businessId: string,
  bank: Bank,
  accountNumber: string,
): Promise<string> {
  // Counted before the provider is asked (one atomic statement), so parallel checks cannot all pass.
  await consume(deps.db, [lookupLimit(businessId)], 'You have checked many bank accounts in a short time.');
  let found: { accountName: string } | null;
  try {
    found = await deps.payouts.resolveAccount(bank.code, accountNumber);
  } catch {
    throw new AppError(
      'PAYOUT_PROVIDER_ERROR',
      `We could not reach ${bank.name} to check this account. Please try again in a moment.`,
    );
  }
  if (!found || !found.accountName.trim()) {
    throw new AppError('BANK_ACCOUNT_NOT_FOUND', bankAccountMessages.notFound(bank.name), {
      details: { fieldErrors: { accountNumber: [bankAccountMessages.notFound(bank.name)] } },
    });
  }
  return found.accountName.trim();
}

export async function resolveBankAccount(
  deps: BankAccountDeps,
  businessId: string,
  input: ResolveBankAccountInput,
): Promise<ResolvedBankAccount> {
  const bank = checkedBank(input);
  const accountName = await lookUp(deps, businessId, bank, input.accountNumber);
  return { bankCode: bank.code, bankName: bank.name, accountNumber: input.accountNumber, accountName };
}

export async function listBankAccounts(deps: BankAccountDeps, businessId: string): Promise<BankAccount[]> {
  return (await repo.listLive(deps.db, businessId)).map(toBankAccount);
}

/**
 * Tells the owner, by notification and e-mail, that where their payouts go has changed: a stolen session
 * that redirects the next payout is then seen by the owner before the money leaves.
 */
async function tellOwner(
  tx: DbOrTx,
  businessId: string,
  row: { bankName: string; accountNumber: string; isDefault: boolean },
  change: 'added' | 'made-default',
): Promise<void> {
  const what = `${row.bankName} ••••${row.accountNumber.slice(-4)}`;
  const title =
    change === 'made-default'
      ? 'A bank account was made your default'
      : row.isDefault
        ? 'A bank account was added and made your default'
        : 'A bank account was added';
  const body = `${title}: ${what}.`;
  await notify(tx, [
    {
      accountId: businessId,
      kind: 'bank_account_changed',
      title,
      body,
      link: '/dashboard/wallet',
      mail: {
        subject: `Giftmart: ${title.charAt(0).toLowerCase()}${title.slice(1)}`,
        heading: title,
        paragraphs: [
          `${body}${row.isDefault ? ' Your next withdrawal will be paid into it.' : ''}`,
          'If this was not you, change your password and transaction PIN now, and remove the account.',
        ],
        action: { label: 'Review your bank accounts', path: '/dashboard/wallet' },
      },
    },
  ]);
}

function alreadyAdded(bank: Bank): AppError {
  return new AppError('BANK_ACCOUNT_EXISTS', `You have already added this ${bank.name} account.`);
}

/**
 * Saves an account the business confirmed: the name is resolved again now and must still be the one they
 * saw (else ACCOUNT_NAME_MISMATCH, with the current name in details). The first live account becomes the
 * default. The transaction PIN is checked first (before the bank is asked), as for a withdrawal, and the
 * owner is told.
 */
export async function addBankAccount(
  deps: BankAccountDeps,
  businessId: string,
  input: CreateBankAccountInput,
): Promise<BankAccount> {
  const bank = checkedBank(input);
  if (await repo.findLiveByNumber(deps.db, businessId, bank.code, input.accountNumber))
    throw alreadyAdded(bank);
  await assertPin(deps, businessId, input.pin);
  const accountName = await lookUp(deps, businessId, bank, input.accountNumber);
  if (!sameAccountName(accountName, input.accountName)) {
    throw new AppError(
      'ACCOUNT_NAME_MISMATCH',
      `${bank.name} now gives the name on this account as ${accountName}, not ${input.accountName}. Verify the account again.`,
      { details: { accountName } },
    );
  }
  return deps.db.transaction(async (tx) => {
    await repo.lockBusiness(tx, businessId);
    if (await repo.findLiveByNumber(tx, businessId, bank.code, input.accountNumber)) throw alreadyAdded(bank);
    const row = await repo.insertBankAccount(tx, {
      businessId,
      bankCode: bank.code,
      bankName: bank.name,
      accountNumber: input.accountNumber,
      accountName,
      isDefault: !(await repo.hasDefault(tx, businessId)),
    });
    await tellOwner(tx, businessId, row, 'added');
    return toBankAccount(row);
  });
}

/** Makes an account the default, after the transaction PIN (checked as for a withdrawal); the owner is told. */
export async function setDefaultBankAccount(
  deps: BankAccountDeps,
  businessId: string,
  id: string,
  input: SetDefaultBankAccountInput,
): Promise<BankAccount> {
  if (!(await repo.findLive(deps.db, businessId, id, false))) throw notFound('That bank account');
  await assertPin(deps, businessId, input.pin);
  return deps.db.transaction(async (tx) => {
    await repo.lockBusiness(tx, businessId);
    const row = await repo.findLive(tx, businessId, id, true);
    if (!row) throw notFound('That bank account');
    if (row.isDefault) return toBankAccount(row);
    const made = await repo.makeDefault(tx, businessId, id);
    await tellOwner(tx, businessId, made, 'made-default');
    return toBankAccount(made);
  });
}

/**
 * Soft-removes an account (withdrawals keep pointing at it). Refused while a withdrawal to it is requested
 * or processing. Removing the default leaves the business with no default: we never pick where money goes
 * for them; the wallet page asks them to choose one of the others.
 */
export async function removeBankAccount(
  deps: BankAccountDeps,
  businessId: string,
  id: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await repo.lockBusiness(tx, businessId);
    // The row lock also makes a withdrawal being created for this account (which should lock it FOR SHARE)
    // either finish first, so it is seen below, or wait and then find the account removed.
    const row = await repo.findLive(tx, businessId, id, true);
    if (!row) throw notFound('That bank account');
    if (await repo.hasWithdrawalInFlight(tx, id)) {
      throw new AppError(
        'BANK_ACCOUNT_IN_USE',
        `A withdrawal to this ${row.bankName} account is still on its way. You can remove the account once it has been paid or has failed.`,
      );
    }
    await repo.softRemove(tx, id);
  });
}
