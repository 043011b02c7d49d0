import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { giftRequestSchema } from '../cards/gifts';

export const orderStatusSchema = z.enum(['pending', 'paid', 'failed', 'refunded']);

export const orderSchema = z
  .object({
    id: z.uuid(),
    reference: z.string(),
    giftCardId: z.uuid(),
    businessName: z.string(),
    status: orderStatusSchema.describe(
      'pending until the provider confirms; paid or failed after; refunded when the business refunded the unused card',
    ),
    amount: moneySchema,
    checkoutUrl: z.string().nullable().describe('Where the buyer pays (the provider’s hosted checkout)'),
    purchasedCardId: z.uuid().nullable().describe('The card issued once the order is paid'),
    giftId: z
      .uuid()
      .nullable()
      .describe(
        'Bought as a gift: the gift the card went into once paid (null before, or when the recipient could no longer receive it and the card stayed with the buyer)',
      ),
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const newOrderSchema = z
  .object({
    giftCardId: z.uuid({ error: 'Choose a gift card to buy.' }),
    gift: giftRequestSchema
      .optional()
      .describe('Buy it as a gift: sent from you to this recipient once the payment is confirmed'),
  })
  .meta({ id: 'NewOrder' });
export type NewOrder = z.infer<typeof newOrderSchema>;

// ── The buyer's orders and receipts (issue 13) ─────────────────────────────────────────────────────────

/** What the sandbox checkout records when the buyer presses Cancel payment: such an order reads "cancelled". */
export const CHECKOUT_CANCELLED_REASON = 'You cancelled the payment. No money was taken.';

/**
 * An order as its buyer's list shows it: pending, paid, failed (the provider declined or could not start
 * it), cancelled (the buyer cancelled at the checkout) or refunded (the business refunded the unused card).
 */
export const orderListStatusSchema = z.enum(['pending', 'paid', 'failed', 'cancelled', 'refunded']);
export type OrderListStatus = z.infer<typeof orderListStatusSchema>;

export const orderListQuerySchema = z.object({
  status: orderListStatusSchema.optional().describe('Only orders in this state; omitted: all'),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderSummarySchema = z
  .object({
    id: z.uuid(),
    reference: z.string().describe('The payment reference the provider knows it by'),
    status: orderListStatusSchema,
    amount: moneySchema,
    design: z.object({
      giftCardId: z.uuid(),
      uniqueId: z.string().describe('The design’s public identifier, e.g. ACM-7K2Q-9XTR'),
      businessName: z.string(),
      brandLogoUrl: z.string().nullable(),
      colour: z.string(),
    }),
    purchasedCardId: z
      .uuid()
      .nullable()
      .describe(
        'The card issued by this order, while you still hold it (null before payment or once given away)',
      ),
    checkoutUrl: z.string().nullable().describe('Pending only: where to continue the payment'),
    failureReason: z.string().nullable().describe('Failed or cancelled only: why, in words'),
    gift: z
      .object({
        recipient: z.string().describe('The e-mail address or username you typed'),
        recipientName: z.string().nullable(),
        giftId: z.uuid().nullable().describe('The gift the card went into once paid'),
      })
      .nullable()
      .describe('Bought as a gift'),
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
    refundedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OrderSummary' });
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderPageSchema = z
  .object({ items: z.array(orderSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'OrderPage' });
export type OrderPage = z.infer<typeof orderPageSchema>;

export const orderReceiptSchema = orderSummarySchema
  .extend({
    buyer: z.object({ name: z.string(), email: z.string() }),
  })
  .meta({ id: 'OrderReceipt' });
export type OrderReceipt = z.infer<typeof orderReceiptSchema>;
