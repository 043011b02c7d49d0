import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';

export const purchasedCardStatusSchema = z.enum(['active', 'redeemed', 'expired', 'void']);

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
    expiresAt: z.iso.datetime().nullable(),
    codeLast4: z.string().describe('The last four characters of the redemption code'),
    purchasedAt: z.iso.datetime(),
  })
  .meta({ id: 'PurchasedCard' });
export type PurchasedCard = z.infer<typeof purchasedCardSchema>;

export const cardActivitySchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['issue', 'redeem', 'refund', 'adjust', 'void', 'transfer']),
    amount: moneySchema.describe('Signed: positive adds to the balance'),
    balanceAfter: moneySchema,
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
