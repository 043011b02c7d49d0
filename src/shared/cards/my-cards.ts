import { z } from 'zod';
import { giftSchema } from './gifts';
import { purchasedCardSchema } from './schemas';

/**
 * My Gift Cards' filters (issue 13). active: can be spent (or is frozen, blocked or in a gift) and holds
 * money; used: used up (balance 0 or redeemed); expired: past its expiry with money left on it; sent: the
 * cards you gave away and whose gifts were accepted (they are their recipients' now).
 */
export const myCardsFilterSchema = z.enum(['active', 'used', 'expired', 'sent']);
export type MyCardsFilter = z.infer<typeof myCardsFilterSchema>;

/** newest: newest first; balance: most money left first (then newest). */
export const myCardsSortSchema = z.enum(['newest', 'balance']);
export type MyCardsSort = z.infer<typeof myCardsSortSchema>;

export const myCardsQuerySchema = z.object({
  status: myCardsFilterSchema.optional().describe('Omitted: every card you hold'),
  sort: myCardsSortSchema
    .default('newest')
    .describe('newest, or balance (highest first); status=sent is always newest first'),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page, with the same sort'),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export type MyCardsQuery = z.infer<typeof myCardsQuerySchema>;

export const myCardsPageSchema = z
  .object({
    items: z.array(purchasedCardSchema).describe('The cards you hold (empty for status=sent)'),
    sentGifts: z
      .array(giftSchema)
      .describe(
        'status=sent only: the accepted gifts you sent, each card as it was handed on (its balance then, never its new code)',
      ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'MyCardsPage' });
export type MyCardsPage = z.infer<typeof myCardsPageSchema>;
