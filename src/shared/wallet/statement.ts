import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { dateRangeQuerySchema, salesMessages, SALES_PAGE_MAX } from '../cards/sales';
import { safeText } from '../text';

/**
 * sale: a card sold (net of the platform fee); refund: a refunded card's money taken back; withdrawal: money
 * sent to the bank; withdrawal_reversed: a failed payout back in the wallet; adjustment: anything else.
 */
export const statementKindSchema = z.enum([
  'sale',
  'refund',
  'withdrawal',
  'withdrawal_reversed',
  'adjustment',
]);
export type StatementKind = z.infer<typeof statementKindSchema>;

/** One movement of the business's wallet, from the ledger. */
export const statementLineSchema = z
  .object({
    id: z.uuid().describe('The ledger posting'),
    createdAt: z.iso.datetime(),
    kind: statementKindSchema,
    description: z.string().describe('What it was, in words'),
    amount: moneySchema.describe('Signed: positive came into the wallet'),
    fee: moneySchema.nullable().describe('The platform fee kept from a sale (already taken from amount)'),
    balanceAfter: moneySchema.describe("The wallet's balance after this line"),
    reference: z.string().describe('The ledger reference (e.g. order:<id>, withdrawal:<id>)'),
  })
  .meta({ id: 'StatementLine' });
export type StatementLine = z.infer<typeof statementLineSchema>;

export const statementQuerySchema = dateRangeQuerySchema
  .extend({
    limit: z.coerce.number().int().min(1).max(SALES_PAGE_MAX).default(20),
    cursor: safeText({ error: salesMessages.cursor }).max(200, salesMessages.cursor).optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: salesMessages.range, path: ['from'] });
export type StatementQuery = z.infer<typeof statementQuerySchema>;

export const statementExportQuerySchema = dateRangeQuerySchema.refine(
  (v) => !v.from || !v.to || v.from <= v.to,
  { message: salesMessages.range, path: ['from'] },
);

export const statementPageSchema = z
  .object({
    items: z.array(statementLineSchema).describe('Newest first'),
    nextCursor: z.string().nullable(),
    balance: moneySchema.describe("The wallet's balance now (the newest line's balanceAfter)"),
  })
  .meta({ id: 'StatementPage' });
export type StatementPage = z.infer<typeof statementPageSchema>;
