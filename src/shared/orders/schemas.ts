import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';

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
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const newOrderSchema = z
  .object({ giftCardId: z.uuid({ error: 'Choose a gift card to buy.' }) })
  .meta({ id: 'NewOrder' });
