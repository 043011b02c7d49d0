import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { formatMoney, parseMoney } from '../money';

/** Gift-card rules shared by the API and the "New Gift Card" form. */
export const DEFAULT_MAX_CARD_AMOUNT_MINOR = 100_000_000; // ₦1,000,000.00

export const cardMessages = {
  amountRequired: 'please enter an amount',
  amountInvalid: 'enter an amount like 5000 or 5000.50',
  amountPositive: 'the amount must be more than 0',
  amountDecimals: 'an amount has at most 2 decimal places',
  amountTooLarge: (max: string) => `the amount can be at most ${max}`,
  /** The v1 API takes minor units (kobo); these say so, with an example in the platform currency. */
  minorNotNumber: (example: string) => `the amount must be a number of minor units: 500000 is ${example}`,
  minorNotWhole: (example: string) =>
    `the amount must be a whole number of minor units: 500000 is ${example}`,
  colourRequired: 'please choose a colour',
  colourInvalid: 'a colour is written like #1A2B3C',
  validityInvalid: `choose No expiry or a validity of 1 to 60 months`,
} as const;

export const MAX_VALIDITY_MONTHS = 60;

/** No expiry (null) or 1–60 months from the day each card is bought. */
export const validityMonthsSchema = z
  .number({ error: cardMessages.validityInvalid })
  .int(cardMessages.validityInvalid)
  .min(1, cardMessages.validityInvalid)
  .max(MAX_VALIDITY_MONTHS, cardMessages.validityInvalid)
  .nullable()
  .describe('Months each bought card stays valid (1–60); null or left out: no expiry');

export const colourSchema = z
  .string({ error: cardMessages.colourRequired })
  .trim()
  .min(1, { message: cardMessages.colourRequired, abort: true })
  .regex(/^#[0-9a-fA-F]{6}$/, cardMessages.colourInvalid)
  .transform((value) => value.toLowerCase());

/**
 * Checks an amount typed in major units ("5000", "5000.50", or the old client's number 5000) and returns
 * minor units. Used for the legacy `moneyWorth` and by the web form; the v1 API takes minor units.
 */
export function majorAmountSchema(currency: string, maxMinor: number) {
  return z
    .union([z.string(), z.number()], { error: cardMessages.amountRequired })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: cardMessages.amountRequired });
        return z.NEVER;
      }
      if (/^-/.test(text)) {
        ctx.addIssue({ code: 'custom', message: cardMessages.amountPositive });
        return z.NEVER;
      }
      if (/^\d+\.\d{3,}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: cardMessages.amountDecimals });
        return z.NEVER;
      }
      if (!/^\d+(\.\d{1,2})?$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: cardMessages.amountInvalid });
        return z.NEVER;
      }
      const minor = parseMoney(text, currency);
      if (minor === null) {
        ctx.addIssue({ code: 'custom', message: cardMessages.amountInvalid });
        return z.NEVER;
      }
      return minor;
    })
    .pipe(minorAmountSchema(currency, maxMinor));
}

/** An amount in minor units (kobo): a positive whole number up to the configured maximum. */
export function minorAmountSchema(currency: string, maxMinor: number) {
  const example = formatMoney({ amount: 500_000, currency });
  return z
    .number({
      error: (issue) =>
        issue.input === undefined ? cardMessages.amountRequired : cardMessages.minorNotNumber(example),
    })
    .int(cardMessages.minorNotWhole(example))
    .positive(cardMessages.amountPositive)
    .max(maxMinor, cardMessages.amountTooLarge(formatMoney({ amount: maxMinor, currency })));
}

export const giftCardSchema = z
  .object({
    id: z.uuid(),
    uniqueId: z
      .string()
      .describe('Public, readable identifier such as ACM-7K2Q-9XTR (not a redemption code)'),
    businessId: z.uuid(),
    businessName: z.string(),
    brandLogoUrl: z.string().nullable(),
    amount: moneySchema,
    colour: z.string(),
    onSale: z.boolean(),
    soldCount: z.number().int(),
    validityMonths: z
      .number()
      .int()
      .nullable()
      .describe('How long each card bought from it stays valid, in months; null: no expiry'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'GiftCard' });
export type GiftCard = z.infer<typeof giftCardSchema>;

export const giftCardPageSchema = z
  .object({
    items: z.array(giftCardSchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
    total: z.number().int().optional().describe("How many cards in all (a business's own list only)"),
  })
  .meta({ id: 'GiftCardPage' });
export type GiftCardPage = z.infer<typeof giftCardPageSchema>;

export const businessProfileSchema = z
  .object({ id: z.uuid(), name: z.string(), logoUrl: z.string().nullable(), cardCount: z.number().int() })
  .meta({ id: 'BusinessProfile' });
export type BusinessProfile = z.infer<typeof businessProfileSchema>;
