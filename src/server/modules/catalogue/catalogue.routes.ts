import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSchema } from '../../../shared/accounts/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import {
  businessProfileSchema,
  colourSchema,
  validityMonthsSchema,
  giftCardPageSchema,
  giftCardSchema,
  minorAmountSchema,
} from '../../../shared/catalogue/schemas';
import { safeText } from '../../../shared/text';
import { requireBusinessSelf, requireSession } from '../../plugins/auth';
import { acceptLogoUploads, logoUploadBody } from '../../plugins/logo-upload';
import { toAccount } from '../accounts/accounts.service';
import * as cards from './catalogue.service';
import type { CatalogueDeps } from './catalogue.service';
import { replaceLogo } from './logos.service';
import { sendPrepared } from '../../lib/prepared-body';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const idParams = z.object({ id: z.uuid({ error: 'That is not a gift card id.' }) });
const businessParams = z.object({ businessId: z.uuid({ error: 'That is not a business id.' }) });
const pageQuery = {
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(24),
};

export const giftCardRoutes: FastifyPluginAsyncZod<CatalogueDeps> = async (app, deps) => {
  const { config } = deps;
  // One cache of ready-to-send catalogue pages per app instance, kept correct by LISTEN (issue 14).
  const catalogue = new cards.CatalogueCache({ db: deps.db, log: app.log });
  app.addHook('onClose', async () => catalogue.close());

  app.post(
    '/gift-cards',
    {
      schema: {
        tags: ['gift cards'],
        summary: 'Create a gift card for the signed-in business',
        // Built from this app's configuration, so it has no global schema id: a second app in the same
        // process (tests) would otherwise put its maximum into this app's OpenAPI document.
        body: z.object({
          amount: minorAmountSchema(config.CURRENCY, config.GIFT_CARD_MAX_AMOUNT_MINOR).describe(
            'Face value in minor units (kobo): 500000 = ₦5,000.00',
          ),
          colour: colourSchema,
          validityMonths: validityMonthsSchema.optional(),
        }),
        response: { 201: giftCardSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      return reply.status(201).send(await cards.createGiftCard(deps, session.account.id, request.body));
    },
  );

  app.get(
    '/gift-cards',
    {
      schema: {
        tags: ['gift cards'],
        summary: 'The public catalogue: every business’s cards on sale, newest first',
        querystring: z.object({
          ...pageQuery,
          q: safeText().trim().max(100).optional().describe('Search by business name'),
          businessId: z.uuid().optional().describe('Only this business’s cards'),
        }),
        response: { 200: giftCardPageSchema, 400: apiErrorSchema },
      },
      // The page is kept compressed ahead; the compression plugin must not touch it again.
      compress: false,
      // A URL answered before whose page is still kept is answered here, before its query is parsed and
      // checked again and the handler runs (issue 14); the app's own hooks (headers, request id) ran.
      onRequest: (request, reply, done) => {
        const kept = catalogue.keptFor(request.url);
        if (kept) sendPrepared(request, reply, kept, JSON_CONTENT_TYPE);
        else done();
      },
    },
    async (request, reply) => {
      const page = await cards.catalogueResponse(deps, catalogue, request.query, request.url);
      // Already serialized (and checked against giftCardPageSchema): the bytes go out as they are.
      return sendPrepared(request, reply, page, JSON_CONTENT_TYPE);
    },
  );

  app.get(
    '/gift-cards/:id',
    {
      schema: {
        tags: ['gift cards'],
        summary: 'One gift card (also one that stopped selling: onSale is false)',
        params: idParams,
        response: { 200: giftCardSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => cards.getGiftCard(deps, request.params.id),
  );

  app.patch(
    '/gift-cards/:id',
    {
      schema: {
        tags: ['gift cards'],
        summary: 'Stop or resume selling one of your gift cards',
        params: idParams,
        body: z
          .object({ onSale: z.boolean({ error: 'onSale must be true or false' }) })
          .meta({ id: 'GiftCardUpdate' }),
        response: { 200: giftCardSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return cards.changeOnSale(deps, session.account.id, request.params.id, request.body.onSale);
    },
  );

  app.get(
    '/businesses/:businessId',
    {
      schema: {
        tags: ['businesses'],
        summary: 'A business’s public profile',
        params: businessParams,
        response: { 200: businessProfileSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => cards.businessProfile(deps, request.params.businessId),
  );

  app.get(
    '/businesses/:businessId/gift-cards',
    {
      schema: {
        tags: ['businesses'],
        summary: 'All of your own gift cards, stopped ones included (only for that business)',
        params: businessParams,
        querystring: z.object({
          ...pageQuery,
          sort: z.enum(['newest', 'best-selling']).default('newest'),
        }),
        response: { 200: giftCardPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireBusinessSelf(request, request.params.businessId);
      return cards.listOwnCards(deps, request.params.businessId, request.query);
    },
  );

  await app.register(async (uploads) => {
    await acceptLogoUploads(uploads, config.LOGO_MAX_BYTES);
    uploads.withTypeProvider<ZodTypeProvider>().put(
      '/businesses/:businessId/logo',
      {
        schema: {
          tags: ['businesses'],
          summary: 'Replace your business logo (multipart field "logo")',
          consumes: ['multipart/form-data'],
          params: businessParams,
          body: logoUploadBody,
          response: { 200: accountSchema, ...errors, 413: apiErrorSchema },
        },
      },
      async (request) => {
        await requireBusinessSelf(request, request.params.businessId);
        return toAccount(await replaceLogo(deps, request.params.businessId, request.body.logo));
      },
    );
  });
};
