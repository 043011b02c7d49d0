import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  balanceCheckSchema,
  cardLookupRequestSchema,
  purchasedCardDetailSchema,
  revealedCodeSchema,
} from '../../../shared/cards/schemas';
import { myCardsPageSchema, myCardsQuerySchema } from '../../../shared/cards/my-cards';
import { apiErrorSchema } from '../../../shared/errors';
import { requireSession } from '../../plugins/auth';
import * as cards from './cards.service';
import * as myCards from './my-cards.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};
const idParams = z.object({ id: z.uuid({ error: 'That is not a valid id.' }) });

/** The holder's cards: My Gift Cards, one card with its history, and the code revealed on demand. */
export const cardRoutes: FastifyPluginAsyncZod<cards.CardsDeps> = async (app, deps) => {
  app.get(
    '/purchased-cards',
    {
      schema: {
        tags: ['purchases'],
        summary: 'My Gift Cards: the cards you bought or were sent, newest first or by balance',
        description:
          '`status` narrows to active, used (used up), expired, or sent: the accepted gifts you sent, in `sentGifts` (those cards are their recipients’ now). A cursor belongs to its sort.',
        querystring: myCardsQuerySchema,
        response: { 200: myCardsPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      const { id, role, email } = session.account;
      return myCards.listMyGiftCards(deps, { id, role, email }, request.query);
    },
  );

  app.get(
    '/purchased-cards/:id',
    {
      schema: {
        tags: ['purchases'],
        summary: 'One of your cards with its history (others get 404)',
        params: idParams,
        response: { 200: purchasedCardDetailSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return cards.getMyCard(deps, session.account.id, request.params.id);
    },
  );

  app.post(
    '/purchased-cards/:id/code',
    {
      schema: {
        tags: ['purchases'],
        summary: 'Reveal the secret redemption code of one of your cards',
        params: idParams,
        response: { 200: revealedCodeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'user');
      reply.header('cache-control', 'no-store');
      return cards.revealCode({ ...deps, log: request.log }, session.account.id, request.params.id);
    },
  );

  for (const frozen of [true, false]) {
    app.post(
      `/purchased-cards/:id/${frozen ? 'freeze' : 'unfreeze'}`,
      {
        schema: {
          tags: ['purchases'],
          summary: frozen
            ? 'Freeze one of your cards at once (a use you did not make): nobody can spend it until you unfreeze it'
            : 'Unfreeze one of your cards',
          params: idParams,
          response: { 200: purchasedCardDetailSchema, ...errors },
        },
      },
      async (request) => {
        const session = await requireSession(request, 'user');
        return cards.setFrozen(deps, session.account.id, request.params.id, frozen);
      },
    );
  }

  app.post(
    '/balance-checks',
    {
      schema: {
        tags: ['cards'],
        summary:
          'Check a card’s balance by its code (no login; limited per IP, one answer for every failure)',
        body: cardLookupRequestSchema,
        response: { 200: balanceCheckSchema, 400: apiErrorSchema, 404: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cards.checkBalance({ ...deps, log: request.log }, request.body.code, request.ip);
    },
  );
};
