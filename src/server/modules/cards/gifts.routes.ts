import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  giftAddressSchema,
  giftListQuerySchema,
  giftPageSchema,
  giftRequestSchema,
  giftSchema,
  giftTokenSchema,
} from '../../../shared/cards/gifts';
import { apiErrorSchema } from '../../../shared/errors';
import { requireSession, type ResolvedSession } from '../../plugins/auth';
import * as gifts from './gifts.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
};
const idParams = z.object({ id: z.uuid({ error: 'That is not a valid id.' }) });
/** The link's token; optional, and the whole body may be left out. */
const tokenBody = giftTokenSchema.optional();

function caller(session: ResolvedSession): gifts.GiftCaller {
  const { id, role, email } = session.account;
  return { id, role, email };
}

/**
 * Gifts (issue 11): send one of your cards, the gifts you sent and received, and what the recipient
 * (accept, decline) and the sender (cancel, correct the address) do while a gift waits.
 */
export const giftRoutes: FastifyPluginAsyncZod<gifts.GiftDeps> = async (app, deps) => {
  app.post(
    '/purchased-cards/:id/gifts',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Send one of your cards as a gift, by e-mail address or Giftmart username',
        description:
          'The card must be active with a balance; it is held (status gift_pending) until the gift ends. 201 with the gift: status "pending" (sent now) or "scheduled" (deliverAt ahead, at most a year). 422 GIFT_RECIPIENT_INVALID when no user has that username, the address is a business’s, or it is your own; 409 CARD_STATE_CONFLICT when the card cannot be sent (already in a gift, frozen, used up…).',
        params: idParams,
        body: giftRequestSchema,
        response: { 201: giftSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'user');
      const gift = await gifts.sendGift(
        { ...deps, log: request.log },
        caller(session),
        request.params.id,
        request.body,
      );
      return reply.status(201).send(gift);
    },
  );

  app.get(
    '/gifts',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Gifts you sent and received, newest first (by when they were sent)',
        description:
          'A scheduled gift is listed for its sender only, until it is sent. `direction` narrows to one side.',
        querystring: giftListQuerySchema,
        response: { 200: giftPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return gifts.listGifts(deps, caller(session), request.query);
    },
  );

  app.get(
    '/gifts/:id',
    {
      schema: {
        tags: ['gifts'],
        summary: 'One gift, for its sender or its recipient (anyone else gets 404)',
        params: idParams,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return gifts.getGift(deps, caller(session), request.params.id);
    },
  );

  app.post(
    '/gifts/:id/preview',
    {
      schema: {
        tags: ['gifts'],
        summary: 'The gift as its link shows it to the recipient (no login; the token from the link)',
        description:
          'For the landing page of the mailed link. A wrong or replaced token gets the same 404 as an unknown id. Limited per IP.',
        params: idParams,
        body: tokenBody,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return gifts.previewGift(deps, request.params.id, request.body?.token, request.ip);
    },
  );

  app.post(
    '/gifts/:id/accept',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Accept a gift: the card becomes yours, with a new code',
        description:
          'As the user it was sent to (by username, or to your account’s address), or with the link’s `token` from any user account. The card moves in one transaction with a transfer activity; a code the sender saw stops working. 409 GIFT_STATE_CONFLICT (details.status) when it is no longer waiting.',
        params: idParams,
        body: tokenBody,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return gifts.acceptGift(
        { ...deps, log: request.log },
        caller(session),
        request.params.id,
        request.body?.token,
      );
    },
  );

  app.post(
    '/gifts/:id/decline',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Decline a gift: the card goes back to the sender, who is told',
        description: 'As its recipient, or with the link’s `token` (no login needed).',
        params: idParams,
        body: tokenBody,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request) => {
      const session = await request.session();
      return gifts.declineGift(
        { ...deps, log: request.log },
        session ? caller(session) : null,
        request.params.id,
        request.body?.token,
      );
    },
  );

  app.post(
    '/gifts/:id/cancel',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Cancel a gift you sent before it is accepted: the card is yours to use again',
        params: idParams,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return gifts.cancelGift({ ...deps, log: request.log }, caller(session), request.params.id);
    },
  );

  app.patch(
    '/gifts/:id',
    {
      schema: {
        tags: ['gifts'],
        summary: 'Correct the address of a gift you sent that is still waiting',
        description:
          'The same rules as sending. A pending gift is sent again to the new address with a new link (the old one stops working at once) and 30 more days; a scheduled one keeps its time.',
        params: idParams,
        body: giftAddressSchema,
        response: { 200: giftSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'user');
      return gifts.correctGiftAddress(
        { ...deps, log: request.log },
        caller(session),
        request.params.id,
        request.body,
      );
    },
  );
};
