import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blockCardSchema, soldCardPageSchema, soldCardSchema } from '../../../shared/cards/schemas';
import { CONTROL_CHARACTERS } from '../../../shared/text';
import { apiErrorSchema } from '../../../shared/errors';
import { requireSession } from '../../plugins/auth';
import type { CardsDeps } from './cards.service';
import * as soldCards from './sold-cards.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};
const idParams = z.object({ id: z.uuid({ error: 'That is not a valid id.' }) });

/** The business's view of the cards it sold: list, one card, block and unblock. */
export const soldCardRoutes: FastifyPluginAsyncZod<CardsDeps> = async (app, deps) => {
  app.get(
    '/sold-cards',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'The cards you sold, newest first (q: the last four characters of a code)',
        querystring: z.object({
          q: z
            .string()
            .trim()
            .max(20)
            .refine((q) => !CONTROL_CHARACTERS.test(q), 'Search by the last four characters of a code.')
            .optional(),
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: soldCardPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return soldCards.listMySoldCards(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/sold-cards/:id',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'One card you sold (others get 404)',
        params: idParams,
        response: { 200: soldCardSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return soldCards.getMySoldCard(deps, session.account.id, request.params.id);
    },
  );

  app.post(
    '/sold-cards/:id/block',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Block a card you sold (reported lost or stolen): it refuses redemption until unblocked',
        params: idParams,
        // Nullish: a POST without a body (no reason given) arrives as null, not undefined.
        body: blockCardSchema.nullish(),
        response: { 200: soldCardSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return soldCards.setBlocked(deps, session.account.id, request.params.id, true, request.body?.reason);
    },
  );

  app.post(
    '/sold-cards/:id/unblock',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Unblock a card you blocked',
        params: idParams,
        response: { 200: soldCardSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return soldCards.setBlocked(deps, session.account.id, request.params.id, false);
    },
  );
};
