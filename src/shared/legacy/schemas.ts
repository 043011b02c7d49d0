import { z } from 'zod';
import type { GiftCard } from '../catalogue/schemas';
import { toLegacyMajorUnits } from '../money';

/** The old back end's shapes (PRODUCT.md "API"), the contract an old client of the original back end keeps (PRODUCT.md "API", ADR 006). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });

export const legacyCardSchema = z
  .object({
    _id: z.string(),
    name: z.string().describe('The business name'),
    BrandLogo: z.string(),
    moneyWorth: z.number().describe('Face value in major units (naira), as the old client shows it'),
    colour: z.string(),
    uniqueID: z.string(),
  })
  .meta({ id: 'LegacyGiftCard' });

export const legacyBusinessSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    Balance: z.number().describe('Wallet balance in major units (naira), as the old client shows it'),
    email: z.string(),
    phoneNumber: z.string(),
    giftCard: z.array(legacyCardSchema),
    logo: z.string(),
  })
  .meta({ id: 'LegacyBusinessSession' });

export const legacyPublicBusinessSchema = z
  .object({ _id: z.string(), name: z.string(), logo: z.string(), giftCard: z.array(legacyCardSchema) })
  .meta({ id: 'LegacyPublicBusiness' });

export const legacyOrderSchema = z
  .object({
    _id: z.string().describe('The order id (the same order as GET /api/v1/orders/{id})'),
    reference: z.string(),
    status: z
      .enum(['pending', 'paid', 'failed', 'refunded'])
      .describe('pending until the provider confirms the payment; the card is issued only then'),
    moneyWorth: z.number().describe('The price in major units (naira), as the old client shows it'),
    giftcardID: z.string(),
    businessID: z.string(),
    checkoutUrl: z.string().nullable().describe('Where the buyer pays (the provider’s hosted checkout)'),
  })
  .meta({ id: 'LegacyOrder' });

export function toLegacyCard(card: GiftCard): z.infer<typeof legacyCardSchema> {
  return {
    _id: card.id,
    name: card.businessName,
    BrandLogo: card.brandLogoUrl ?? '',
    moneyWorth: toLegacyMajorUnits(card.amount),
    colour: card.colour,
    uniqueID: card.uniqueId,
  };
}
