import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { hasControlCharacters } from '../text';

/**
 * active: can be spent; redeemed: used up (balance 0); expired: past its expiry; void: refunded, its code is
 * dead; frozen: its holder froze it (unfreeze to spend); blocked: the business blocked it (lost or stolen);
 * gift_pending: it is in a gift waiting for its recipient (it cannot be spent, refunded or sent again).
 */
export const purchasedCardStatusSchema = z.enum([
  'active',
  'redeemed',
  'expired',
  'void',
  'frozen',
  'blocked',
  'gift_pending',
]);
export type PurchasedCardStatus = z.infer<typeof purchasedCardStatusSchema>;

export const purchasedCardSchema = z
  .object({
    id: z.uuid(),
    giftCardId: z.uuid(),
    uniqueId: z.string(),
    businessId: z.uuid(),
    businessName: z.string(),
    brandLogoUrl: z.string().nullable(),
    colour: z.string(),
    initialValue: moneySchema,
    balance: moneySchema,
    status: purchasedCardStatusSchema,
    expiresAt: z.iso.datetime().nullable().describe('Null: the card never expires'),
    codeLast4: z.string().describe('The last four characters of the redemption code'),
    purchasedAt: z.iso.datetime(),
  })
  .meta({ id: 'PurchasedCard' });
export type PurchasedCard = z.infer<typeof purchasedCardSchema>;

export const cardActivityKindSchema = z.enum([
  'issue',
  'redeem',
  'reverse',
  'refund',
  'expire',
  'block',
  'unblock',
  'freeze',
  'unfreeze',
  'adjust',
  'void',
  'transfer',
  'gift_sent',
  'gift_returned',
]);
export type CardActivityKind = z.infer<typeof cardActivityKindSchema>;

export const cardActivitySchema = z
  .object({
    id: z.uuid(),
    kind: cardActivityKindSchema,
    amount: moneySchema.describe('Signed: positive adds to the balance'),
    balanceAfter: moneySchema,
    reference: z.string().nullable().describe('The till reference or note given with a redemption'),
    placeName: z.string().nullable().describe('The business that redeemed, reversed, blocked or refunded'),
    reversed: z.boolean().describe('A redemption that was later reversed'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'CardActivity' });

export const purchasedCardDetailSchema = purchasedCardSchema
  .extend({ activities: z.array(cardActivitySchema).describe('Oldest first') })
  .meta({ id: 'PurchasedCardDetail' });
export type PurchasedCardDetail = z.infer<typeof purchasedCardDetailSchema>;

export const purchasedCardPageSchema = z
  .object({ items: z.array(purchasedCardSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'PurchasedCardPage' });
export type PurchasedCardPage = z.infer<typeof purchasedCardPageSchema>;

export const revealedCodeSchema = z
  .object({ code: z.string().describe('Formatted XXXX-XXXX-XXXX-XXXX-C') })
  .meta({ id: 'RevealedCode' });
export type CardActivity = z.infer<typeof cardActivitySchema>;

// ── Spending a card (issue 10) ─────────────────────────────────────────────────────────────────────────

/** How long a business may reverse a redemption made by mistake, and refund an unused card. */
export const REVERSAL_WINDOW_HOURS = 24;
export const REFUND_WINDOW_DAYS = 30;
export const REFERENCE_MAX_LENGTH = 100;

export const redeemMessages = {
  codeRequired: 'Enter the gift card code.',
  /** One answer for an unknown code, another business's code and a mistyped one (nothing to learn from it). */
  notFound: 'That code does not match a gift card you can redeem. Check the code and try again.',
  /** The public balance check's one answer for every failure. */
  balanceNotFound: 'That code does not match a gift card. Check the code and try again.',
  typo: 'That code has a typo: check each character (the last one is a check character).',
  amountRequired: 'Enter the amount to redeem, or choose Redeem all.',
  amountOrAll: 'Send either an amount or "all": true, not both.',
  referenceTooLong: `A reference is at most ${REFERENCE_MAX_LENGTH} characters.`,
  notPrintable: 'Use letters, digits and punctuation only (no control characters).',
} as const;

const printable = (value: string) => !hasControlCharacters(value);

export const cardCodeSchema = z
  .string({ error: redeemMessages.codeRequired })
  .trim()
  .min(1, redeemMessages.codeRequired)
  .max(64, redeemMessages.notFound)
  .describe(
    'The redemption code as typed or scanned: XXXX-XXXX-XXXX-XXXX-C, any case, spaces and dashes allowed',
  );

export const cardLookupRequestSchema = z.object({ code: cardCodeSchema }).meta({ id: 'CardLookupRequest' });

/** A sold card as its business sees it at the till or in its list: never the code, never the holder's e-mail. */
export const soldCardSchema = purchasedCardSchema
  .extend({
    recentActivities: z.array(cardActivitySchema).describe('The last few activities, newest first'),
    refundableUntil: z.iso
      .datetime()
      .nullable()
      .describe(
        'Until when the business may refund it (never redeemed, within 30 days of sale); null: not refundable',
      ),
  })
  .meta({ id: 'SoldCard' });
export type SoldCard = z.infer<typeof soldCardSchema>;

export const soldCardPageSchema = z
  .object({ items: z.array(soldCardSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'SoldCardPage' });
export type SoldCardPage = z.infer<typeof soldCardPageSchema>;

export const redeemRequestSchema = z
  .object({
    code: cardCodeSchema,
    amount: z
      .number({ error: redeemMessages.amountRequired })
      .int('The amount is a whole number of minor units (kobo).')
      .positive('The amount must be more than 0.')
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('Minor units (kobo); or send "all": true'),
    all: z.literal(true).optional().describe('Redeem the whole balance'),
    reference: z
      .string()
      .trim()
      .max(REFERENCE_MAX_LENGTH, redeemMessages.referenceTooLong)
      .refine(printable, redeemMessages.notPrintable)
      .optional()
      .describe('Till reference or note'),
  })
  .refine((v) => v.amount !== undefined || v.all === true, {
    message: redeemMessages.amountRequired,
    path: ['amount'],
  })
  .refine((v) => !(v.amount !== undefined && v.all === true), {
    message: redeemMessages.amountOrAll,
    path: ['amount'],
  })
  .meta({ id: 'RedeemRequest' });
export type RedeemRequest = z.infer<typeof redeemRequestSchema>;

/** One redemption (or the reversal of one): what the till's receipt shows. */
export const redemptionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['redeem', 'reverse']),
    amount: moneySchema.describe('The amount taken (a reversal: given back), always positive'),
    balanceAfter: moneySchema,
    purchasedCardId: z.uuid(),
    reference: z.string().nullable(),
    codeLast4: z.string(),
    businessName: z.string(),
    reversedAt: z.iso.datetime().nullable().describe('When this redemption was reversed, if it was'),
    reversibleUntil: z.iso
      .datetime()
      .nullable()
      .describe('Until when this redemption may be reversed; null once reversed (or for a reversal)'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Redemption' });
export type Redemption = z.infer<typeof redemptionSchema>;

export const balanceCheckSchema = z
  .object({ balance: moneySchema, status: purchasedCardStatusSchema, expiresAt: z.iso.datetime().nullable() })
  .meta({ id: 'BalanceCheck' });
export type BalanceCheck = z.infer<typeof balanceCheckSchema>;

export const blockCardSchema = z
  .object({
    reason: z
      .string()
      .trim()
      .max(REFERENCE_MAX_LENGTH, `A reason is at most ${REFERENCE_MAX_LENGTH} characters.`)
      .refine(printable, redeemMessages.notPrintable)
      .optional()
      .describe('Why (e.g. reported lost by the holder)'),
  })
  .meta({ id: 'BlockCard' });
