import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';

/** The API contract of the wallet: PIN, bank accounts and withdrawals (issue 5). */
export const PIN_LOCK_ATTEMPTS = 5;
export const PIN_LOCK_MINUTES = 15;

export const pinMessages = {
  required: 'please enter your 4-digit PIN',
  format: 'a PIN is exactly 4 digits',
  weak: 'choose a PIN that is not all the same digit or a run like 1234 or 4321',
  confirm: 'the two PINs do not match',
} as const;

export const bankAccountSchema = z
  .object({
    id: z.uuid(),
    bankCode: z.string(),
    bankName: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    isDefault: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BankAccount' });
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const walletSchema = z
  .object({
    balance: moneySchema,
    pinSet: z.boolean().describe('Whether the business has created its transaction PIN'),
    defaultBankAccount: bankAccountSchema.nullable(),
  })
  .meta({ id: 'Wallet' });
export type Wallet = z.infer<typeof walletSchema>;

export const withdrawalStatusSchema = z.enum(['requested', 'processing', 'paid', 'failed']);

export const withdrawalSchema = z
  .object({
    id: z.uuid(),
    amount: moneySchema,
    status: withdrawalStatusSchema,
    reference: z.string(),
    bankAccount: bankAccountSchema,
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Withdrawal' });
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const withdrawalPageSchema = z
  .object({ items: z.array(withdrawalSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'WithdrawalPage' });
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;

export const withdrawalMessages = {
  amountRequired: 'please enter an amount to withdraw',
  pinRequired: 'please enter your 4-digit transaction PIN',
} as const;

/** The transaction PIN a withdrawal sends: four digits. */
export const withdrawalPinSchema = z
  .string({ error: withdrawalMessages.pinRequired })
  .regex(/^\d{4}$/, withdrawalMessages.pinRequired);
