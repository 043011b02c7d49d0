import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import { soldCardSchema } from '../../../shared/cards/schemas';
import {
  newOrderSchema,
  orderListQuerySchema,
  orderPageSchema,
  orderReceiptSchema,
  orderSchema,
} from '../../../shared/orders/schemas';
import { requireSession } from '../../plugins/auth';
import * as orders from './orders.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const idParams = z.object({ id: z.uuid({ error: 'That is not a valid id.' }) });

export const purchaseRoutes: FastifyPluginAsyncZod<orders.PurchaseDeps> = async (app, deps) => {
  app.post(
    '/orders',
    {
      schema: {
        tags: ['purchases'],
        summary: 'Start buying a gift card: a pending order and the provider’s checkout address',
        description:
          'Send an `Idempotency-Key` header: a retry with the same key and body returns the first order (200); the same key with another body is 409. The order is completed only by the provider’s verified confirmation.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: newOrderSchema,
        response: { 200: orderSchema, 201: orderSchema, ...errors, 409: apiErrorSchema, 502: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'user');
      const key = request.headers['idempotency-key'];
      const { order, replayed } = await orders.startPurchase(
        { ...deps, log: request.log },
        session.account,
        request.body,
        key,
      );
      return reply.status(replayed ? 200 : 201).send(order);
    },
  );

  app.get(
    '/orders',
    {
      schema: {
        tags: ['purchases'],
        summary:
          'Your orders, newest first: paid, pending (with its checkout to continue), failed or cancelled (with why), refunded',
        querystring: orderListQuerySchema,
        response: { 200: orderPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return orders.listOrders(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/orders/:id/receipt',
    {
      schema: {
        tags: ['purchases'],
        summary: 'The receipt of one of your paid orders (404 for an order not paid, or not yours)',
        params: idParams,
        response: { 200: orderReceiptSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return orders.getReceipt(deps, session.account.id, request.params.id);
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags: ['purchases'],
        summary: 'One of your orders',
        params: idParams,
        response: { 200: orderSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return orders.getOrder(deps, session.account.id, request.params.id);
    },
  );

  app.post(
    '/sold-cards/:id/refund',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Refund a card you sold that was never used (within 30 days): the buyer gets the money back',
        description:
          'The payment provider refunds the buyer, one balanced ledger entry takes the sale back out of your wallet, the card is voided and its code dies. Refused with the reason when the card was used, is older than 30 days, or your wallet no longer holds the amount. Send an `Idempotency-Key`: a retry returns the first answer.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        params: idParams,
        response: { 200: soldCardSchema, ...errors, 409: apiErrorSchema, 502: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      const { card } = await orders.refundCard(
        { ...deps, log: request.log },
        session.account.id,
        request.params.id,
        request.headers['idempotency-key'],
      );
      return card;
    },
  );
};
