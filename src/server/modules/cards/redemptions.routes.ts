import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cardLookupRequestSchema,
  redeemRequestSchema,
  redemptionSchema,
  soldCardSchema,
} from '../../../shared/cards/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { requireSession } from '../../plugins/auth';
import type { CardsDeps } from './cards.service';
import * as redemptions from './redemptions.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};
const idParams = z.object({ id: z.uuid({ error: 'That is not a valid id.' }) });
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

/** The till: look a code up, redeem part or all of a card, reverse a mistake within 24 hours. */
export const redemptionRoutes: FastifyPluginAsyncZod<CardsDeps> = async (app, deps) => {
  app.post(
    '/card-lookups',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Look a code up at the till: the card, its balance, status, expiry and last uses',
        description:
          'Only the signed-in business’s own cards are found; an unknown code, another business’s code and a mistyped one all get the same 404. Limited per business and per IP (counted before the code is checked).',
        body: cardLookupRequestSchema,
        response: { 200: soldCardSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      reply.header('cache-control', 'no-store');
      return redemptions.lookUpCard(
        { ...deps, log: request.log },
        { businessId: session.account.id, businessName: session.account.name, ip: request.ip },
        request.body.code,
      );
    },
  );

  app.post(
    '/redemptions',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Redeem part or all of a card (amount in minor units, or "all": true)',
        description:
          'Send an `Idempotency-Key` header: a retry with the same key and body returns the first redemption (200); the same key with another body is 409. The balance never goes below zero, whatever the concurrency.',
        headers: idempotencyHeaders,
        body: redeemRequestSchema,
        response: { 200: redemptionSchema, 201: redemptionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const { redemption, replayed } = await redemptions.redeem(
        { ...deps, log: request.log },
        { businessId: session.account.id, businessName: session.account.name, ip: request.ip },
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(replayed ? 200 : 201).send(redemption);
    },
  );

  app.get(
    '/redemptions/:id',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'One of your redemptions (or reversals), as its receipt shows it',
        params: idParams,
        response: { 200: redemptionSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return redemptions.getRedemption(deps, session.account.id, request.params.id);
    },
  );

  app.post(
    '/redemptions/:id/reversal',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Reverse a redemption made by mistake (within 24 hours): the amount goes back on the card',
        description:
          'A new activity that gives the amount back, never a deletion; one reversal per redemption.',
        headers: idempotencyHeaders,
        params: idParams,
        response: { 200: redemptionSchema, 201: redemptionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const { redemption, replayed } = await redemptions.reverseRedemption(
        { ...deps, log: request.log },
        { businessId: session.account.id, businessName: session.account.name },
        request.params.id,
        request.headers['idempotency-key'],
      );
      return reply.status(replayed ? 200 : 201).send(redemption);
    },
  );
};
