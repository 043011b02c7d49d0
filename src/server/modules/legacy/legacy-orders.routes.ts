import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import { envelope, legacyOrderSchema } from '../../../shared/legacy/schemas';
import { toLegacyMajorUnits } from '../../../shared/money';
import { AppError, notFound } from '../../lib/app-error';
import { requireSession } from '../../plugins/auth';
import { getGiftCard } from '../catalogue/catalogue.service';
import * as orders from '../orders/orders.service';

const params = z.object({
  userID: z.uuid({ error: 'That is not a user id.' }),
  businessID: z.uuid({ error: 'That is not a business id.' }),
  giftcardID: z.uuid({ error: 'That is not a gift card id.' }),
});

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  502: apiErrorSchema,
};

/**
 * The old client's purchase. Its old back end answered with success at once; here it starts the same
 * purchase as POST /api/v1/orders (a pending order and the provider's checkout link), and the card is
 * issued only when the provider confirms the payment.
 */
export const legacyOrderRoutes: FastifyPluginAsyncZod<orders.PurchaseDeps> = async (app, deps) => {
  app.post(
    '/buyagiftcard/:userID/:businessID/:giftcardID',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Start buying a gift card (old client): a pending order and its checkout link',
        description:
          'Only for the signed-in user named by userID; the gift card must be one of businessID’s. Nothing is issued until the payment provider confirms the payment (send the buyer to `checkoutUrl`). An `Idempotency-Key` header is honoured as on POST /api/v1/orders.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        params,
        response: { 200: envelope(legacyOrderSchema), 201: envelope(legacyOrderSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { userID, businessID, giftcardID } = request.params;
      const session = await requireSession(request, 'user');
      if (session.account.id !== userID) {
        throw new AppError('FORBIDDEN', 'You can only buy gift cards for your own account.');
      }
      const card = await getGiftCard(deps, giftcardID);
      if (card.businessId !== businessID) throw notFound('That gift card');
      const { order, replayed } = await orders.startPurchase(
        { ...deps, log: request.log },
        session.account,
        { giftCardId: giftcardID },
        request.headers['idempotency-key'],
      );
      return reply.status(replayed ? 200 : 201).send({
        message: 'Order created. Pay at the checkout link to get your gift card.',
        data: {
          _id: order.id,
          reference: order.reference,
          status: order.status,
          moneyWorth: toLegacyMajorUnits(order.amount),
          giftcardID: order.giftCardId,
          businessID,
          checkoutUrl: order.checkoutUrl,
        },
      });
    },
  );
};
