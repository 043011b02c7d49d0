import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { safeText } from '../text';
import { purchasedCardStatusSchema } from './schemas';

/**
 * The business's figures (issue 13): its sold cards, its redemptions at the till, and the summary and chart
 * of its home page. Money is `{ amount, currency }` in integer minor units; times are ISO strings; cursors
 * are opaque strings handed back as `nextCursor`.
 */

/** "Today" and "this month" are counted in the platform's time zone. */
export const PLATFORM_TIME_ZONE = 'Africa/Lagos';
export const SALES_PAGE_MAX = 100;

export const salesMessages = {
  date: 'Give a date as YYYY-MM-DD (for example 2026-01-31).',
  range: 'The "from" date must be on or before the "to" date.',
  q: 'Search by the last four characters of a code or by an order reference (letters, digits and dashes).',
  cursor: 'That page cursor is not valid. Start again from the first page.',
  days: 'The chart shows the last 30 or 90 days.',
  giftCardId: 'That is not a valid gift card id.',
} as const;

/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30). */
export const isoDateSchema = safeText({ error: salesMessages.date })
  .regex(/^\d{4}-\d\d-\d\d$/, salesMessages.date)
  .refine((value) => {
    const ms = Date.parse(`${value}T00:00:00Z`);
    return (
      Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value && !value.startsWith('0000')
    );
  }, salesMessages.date);

const cursorSchema = safeText({ error: salesMessages.cursor }).max(200, salesMessages.cursor);

/** from/to: calendar days in the platform's time zone, both included. */
export const dateRangeQuerySchema = z.object({
  from: isoDateSchema.optional().describe('First day included (YYYY-MM-DD, platform time zone)'),
  to: isoDateSchema.optional().describe('Last day included (YYYY-MM-DD, platform time zone)'),
});

const rangeInOrder = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;

export const salesQuerySchema = dateRangeQuerySchema
  .extend({
    giftCardId: z.uuid({ error: salesMessages.giftCardId }).optional().describe('Only cards of this design'),
    status: purchasedCardStatusSchema.optional(),
    q: safeText({ error: salesMessages.q })
      .trim()
      .max(40, salesMessages.q)
      .regex(/^[A-Za-z0-9\s-]*$/, salesMessages.q)
      .optional()
      .describe('The last four characters of a code, or an order reference'),
    limit: z.coerce.number().int().min(1).max(SALES_PAGE_MAX).default(20),
    cursor: cursorSchema.optional(),
  })
  .refine(rangeInOrder, { message: salesMessages.range, path: ['from'] });
export type SalesQuery = z.infer<typeof salesQuerySchema>;

/** The CSV export takes the same filters, without paging. */
export const salesExportQuerySchema = dateRangeQuerySchema
  .extend({
    giftCardId: z.uuid({ error: salesMessages.giftCardId }).optional(),
    status: purchasedCardStatusSchema.optional(),
    q: safeText({ error: salesMessages.q })
      .trim()
      .max(40, salesMessages.q)
      .regex(/^[A-Za-z0-9\s-]*$/, salesMessages.q)
      .optional(),
  })
  .refine(rangeInOrder, { message: salesMessages.range, path: ['from'] });
export type SalesExportQuery = z.infer<typeof salesExportQuerySchema>;

/** One sold card as the business's sales table shows it: never the code, never the buyer's e-mail. */
export const saleSchema = z
  .object({
    id: z.uuid().describe('The purchased card'),
    soldAt: z.iso.datetime(),
    giftCardId: z.uuid(),
    designName: z
      .string()
      .describe("The design's public id (e.g. ACM-7K2Q-9XTR): designs have no other name"),
    value: moneySchema.describe('What the card was sold for'),
    balance: moneySchema,
    status: purchasedCardStatusSchema,
    codeLast4: z.string(),
    buyerName: z.string().describe("The buyer's name or @username; 'Deleted account' once deleted"),
    expiresAt: z.iso.datetime().nullable(),
    orderId: z.uuid(),
    orderReference: z.string(),
  })
  .meta({ id: 'Sale' });
export type Sale = z.infer<typeof saleSchema>;

export const salePageSchema = z
  .object({ items: z.array(saleSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'SalePage' });
export type SalePage = z.infer<typeof salePageSchema>;

export const salesSummarySchema = z
  .object({
    outstanding: moneySchema.describe(
      'Total balance on sold cards that can still be spent (active, frozen, in a gift; not past expiry)',
    ),
    soldToday: moneySchema.describe('Value of the cards sold today (platform time zone)'),
    soldThisMonth: moneySchema,
    redeemedToday: moneySchema.describe('Redeemed at the till today, less reversals made today'),
    redeemedThisMonth: moneySchema,
    walletBalance: moneySchema.describe('The same balance GET /api/v1/wallet gives'),
    timeZone: z.string().describe('The time zone of "today" and "this month"'),
  })
  .meta({ id: 'SalesSummary' });
export type SalesSummary = z.infer<typeof salesSummarySchema>;

export const salesDailyQuerySchema = z.object({
  days: z.coerce
    .number({ error: salesMessages.days })
    .int(salesMessages.days)
    .refine((d) => d === 30 || d === 90, salesMessages.days)
    .default(30),
});

export const salesDaySchema = z
  .object({
    date: z.string().describe('YYYY-MM-DD in the platform time zone'),
    sold: moneySchema,
    redeemed: moneySchema.describe('Redeemed less reversals'),
  })
  .meta({ id: 'SalesDay' });
export type SalesDay = z.infer<typeof salesDaySchema>;

export const salesDailySchema = z
  .object({ timeZone: z.string(), days: z.array(salesDaySchema).describe('Oldest first, every day') })
  .meta({ id: 'SalesDaily' });
export type SalesDaily = z.infer<typeof salesDailySchema>;

/** One use of a card at the business's till. */
export const redemptionRowSchema = z
  .object({
    id: z.uuid(),
    createdAt: z.iso.datetime(),
    purchasedCardId: z.uuid(),
    codeLast4: z.string(),
    designName: z.string(),
    amount: moneySchema.describe('Taken from the card, positive'),
    balanceAfter: moneySchema,
    reference: z.string().nullable().describe('The till reference or note'),
    reversed: z.boolean(),
    reversedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'RedemptionRow' });
export type RedemptionRow = z.infer<typeof redemptionRowSchema>;

export const redemptionsQuerySchema = dateRangeQuerySchema
  .extend({
    limit: z.coerce.number().int().min(1).max(SALES_PAGE_MAX).default(20),
    cursor: cursorSchema.optional(),
  })
  .refine(rangeInOrder, { message: salesMessages.range, path: ['from'] });
export type RedemptionsQuery = z.infer<typeof redemptionsQuerySchema>;

export const redemptionsExportQuerySchema = dateRangeQuerySchema.refine(rangeInOrder, {
  message: salesMessages.range,
  path: ['from'],
});

export const redemptionPageSchema = z
  .object({ items: z.array(redemptionRowSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'RedemptionPage' });
export type RedemptionPage = z.infer<typeof redemptionPageSchema>;
