import { z } from 'zod';
import { checkNuban, findBank, type Bank } from './banks';
import { withdrawalPinSchema } from './schemas';

/** The API contract of bank accounts (issue 5): the bank list, name resolution and saving. */

export const bankSchema = z
  .object({ code: z.string(), name: z.string() })
  .meta({ id: 'Bank', description: 'A Nigerian bank and its CBN/NIBSS code' });

export const bankListSchema = z.object({ items: z.array(bankSchema) }).meta({ id: 'BankList' });

const bankCodeField = z
  .string({ error: 'Choose your bank.' })
  .trim()
  .min(1, { error: 'Choose your bank.' })
  .max(10, { error: 'Choose your bank from the list.' })
  .describe('The bank’s code from GET /api/v1/banks, e.g. 058');

const accountNumberField = z
  .string({ error: 'Enter your 10-digit account number.' })
  .trim()
  .regex(/^\d{10}$/, { error: 'An account number is exactly 10 digits.' })
  .describe('The 10-digit NUBAN');

export const resolveBankAccountSchema = z
  .object({ bankCode: bankCodeField, accountNumber: accountNumberField })
  .meta({ id: 'ResolveBankAccount' });
export type ResolveBankAccountInput = z.infer<typeof resolveBankAccountSchema>;

export const resolvedBankAccountSchema = z
  .object({
    bankCode: z.string(),
    bankName: z.string(),
    accountNumber: z.string(),
    accountName: z.string().describe('The name the bank holds for this account, to confirm before saving'),
  })
  .meta({ id: 'ResolvedBankAccount' });
export type ResolvedBankAccount = z.infer<typeof resolvedBankAccountSchema>;

export const createBankAccountSchema = z
  .object({
    bankCode: bankCodeField,
    accountNumber: accountNumberField,
    accountName: z
      .string({ error: 'Verify the account first.' })
      .trim()
      .min(1, { error: 'Verify the account first.' })
      .max(200)
      .describe('The name the business confirmed (from /bank-accounts/resolve)'),
    pin: withdrawalPinSchema.describe(
      'The transaction PIN: where payouts go is guarded like a withdrawal (wrong tries count toward the lock-out)',
    ),
  })
  .meta({ id: 'CreateBankAccount' });
export type CreateBankAccountInput = z.infer<typeof createBankAccountSchema>;

export const setDefaultBankAccountSchema = z
  .object({
    pin: withdrawalPinSchema.describe(
      'The transaction PIN: the default account receives the next payout, so it is guarded like a withdrawal',
    ),
  })
  .meta({ id: 'SetDefaultBankAccount' });
export type SetDefaultBankAccountInput = z.infer<typeof setDefaultBankAccountSchema>;

export const bankAccountMessages = {
  unknownBank: 'Choose your bank from the list.',
  format: 'An account number is exactly 10 digits.',
  checkDigit: (bank: string) => `That account number is not valid for ${bank}. Check the 10 digits.`,
  notFound: (bank: string) => `We could not find that account at ${bank}.`,
} as const;

/**
 * Checks a bank code and account number before anything asks the bank: the bank must be on the list and,
 * for banks with 3-digit codes, the NUBAN check digit must agree. Returns the bank, or the message to show.
 */
export function checkBankAccount(
  bankCode: string,
  accountNumber: string,
): { ok: true; bank: Bank } | { ok: false; field: 'bankCode' | 'accountNumber'; message: string } {
  const bank = findBank(bankCode);
  if (!bank) return { ok: false, field: 'bankCode', message: bankAccountMessages.unknownBank };
  const check = checkNuban(bank.code, accountNumber);
  if (check === 'format') return { ok: false, field: 'accountNumber', message: bankAccountMessages.format };
  if (check === 'check-digit') {
    return { ok: false, field: 'accountNumber', message: bankAccountMessages.checkDigit(bank.name) };
  }
  return { ok: true, bank };
}

/** Names compare without regard to case, spacing or punctuation, as banks write them differently. */
export function sameAccountName(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9 ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .join(' ');
  return norm(a) === norm(b);
}

/** •••••• 1234: the last four digits, for lists. */
export function maskAccountNumber(accountNumber: string): string {
  return `•••••• ${accountNumber.slice(-4)}`;
}
