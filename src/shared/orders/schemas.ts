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
