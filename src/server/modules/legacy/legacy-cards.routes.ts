import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import { colourSchema, majorAmountSchema } from '../../../shared/catalogue/schemas';
import { notFound } from '../../lib/app-error';
import { requireBusinessSelf } from '../../plugins/auth';
import { findAccount } from '../accounts/accounts.service';
import { acceptLogoUploads, logoUploadBody } from '../../plugins/logo-upload';
import { replaceLogo } from '../catalogue/logos.service';
import type { CatalogueDeps } from '../catalogue/catalogue.service';
import * as cards from '../catalogue/catalogue.service';
import {
  envelope,
  legacyBusinessSchema,
  legacyCardSchema,
  legacyPublicBusinessSchema,
  toLegacyCard,
} from '../../../shared/legacy/schemas';
import { toLegacyBusiness } from './legacy-shapes';

/** How many cards the old list endpoints return (they had no paging); /api/v1 pages through all of them. */
export const LEGACY_LIST_LIMIT = 100;

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const businessParams = z.object({ businessId: z.uuid({ error: 'That is not a business id.' }) });

/** The old client's gift-card paths (seed §7, PRODUCT.md "API") over the same services as /api/v1. */
export const legacyCardRoutes: FastifyPluginAsyncZod<CatalogueDeps> = async (app, deps) => {
  const { config, db } = deps;

  async function ownCards(businessId: string) {
    return (await cards.listOwnCards(deps, businessId, { limit: LEGACY_LIST_LIMIT, sort: 'newest' })).items;
  }

  app.post(
    '/generateyourgiftcard/:businessId',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Create a gift card (old client); only for the signed-in business itself',
        params: businessParams,
        body: z.object({
          moneyWorth: majorAmountSchema(config.CURRENCY, config.GIFT_CARD_MAX_AMOUNT_MINOR).describe(
            'Face value in major units (naira), at most 2 decimals',
          ),
          colour: colourSchema,
        }),
        response: { 201: envelope(legacyCardSchema), ...errors },
      },
    },
    async (request, reply) => {
      await requireBusinessSelf(request, request.params.businessId);
      const card = await cards.createGiftCard(deps, request.params.businessId, {
        amount: request.body.moneyWorth,
        colour: request.body.colour,
      });
      return reply.status(201).send({ message: 'Gift card created successfully!', data: toLegacyCard(card) });
    },
  );

  app.get(
    '/businessgiftcard/:businessId',
    {
      schema: {
        tags: ['legacy'],
        summary: 'The signed-in business with its cards in data.giftCard (old client)',
        params: businessParams,
        response: { 200: envelope(legacyBusinessSchema), ...errors },
      },
    },
    async (request) => {
      const session = await requireBusinessSelf(request, request.params.businessId);
      const data = await toLegacyBusiness(
        db,
        config.CURRENCY,
        session.account,
        await ownCards(session.account.id),
      );
      return { message: 'Gift cards found', data };
    },
  );

  app.get(
    '/getallgiftcards',
    {
      schema: {
        tags: ['legacy'],
        summary: `Newest ${LEGACY_LIST_LIMIT} cards on sale (old client); /api/v1/gift-cards pages through all`,
        response: { 200: envelope(z.array(legacyCardSchema)) },
      },
    },
    async () => {
      const page = await cards.listCatalogue(deps, { limit: LEGACY_LIST_LIMIT });
      return { message: 'Gift cards found', data: page.items.map(toLegacyCard) };
    },
  );

  app.get(
    '/getonegiftcard/:id',
    {
      schema: {
        tags: ['legacy'],
        summary: 'One gift card (old client)',
        params: z.object({ id: z.uuid({ error: 'That is not a gift card id.' }) }),
        response: { 200: envelope(legacyCardSchema), 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => ({
      message: 'Gift card found',
      data: toLegacyCard(await cards.getGiftCard(deps, request.params.id)),
    }),
  );

  app.get(
    '/getsinglebusiness/:businessId',
    {
      schema: {
        tags: ['legacy'],
        summary:
          'A business and its cards on sale (old client); the business itself also sees its balance and contacts',
        params: businessParams,
        response: {
          200: envelope(z.union([legacyBusinessSchema, legacyPublicBusinessSchema])),
          400: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const business = await findAccount(db, request.params.businessId);
      if (!business || business.role !== 'business') throw notFound('That business');
      const session = await request.session();
      if (session?.account.id === business.id) {
        return {
          message: 'Business found',
          data: await toLegacyBusiness(db, config.CURRENCY, business, await ownCards(business.id)),
        };
      }
      const onSale = await cards.listCatalogue(deps, { limit: LEGACY_LIST_LIMIT, businessId: business.id });
      return {
        message: 'Business found',
        data: {
          _id: business.id,
          name: business.name,
          logo: business.logoKey ? `/uploads/${business.logoKey}` : '',
          giftCard: onSale.items.map(toLegacyCard),
        },
      };
    },
  );

  app.get(
    '/getsinglebusiness/:businessId/cards',
    {
      schema: {
        tags: ['legacy'],
        summary: 'A business’s cards on sale (old client)',
        params: businessParams,
        response: { 200: envelope(z.array(legacyCardSchema)), 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      await cards.businessProfile(deps, request.params.businessId); // 404 for an unknown business
      const page = await cards.listCatalogue(deps, {
        limit: LEGACY_LIST_LIMIT,
        businessId: request.params.businessId,
      });
      return { message: 'Gift cards found', data: page.items.map(toLegacyCard) };
    },
  );

  await app.register(async (uploads) => {
    await acceptLogoUploads(uploads, config.LOGO_MAX_BYTES);
    uploads.withTypeProvider<ZodTypeProvider>().patch(
      '/updatebusinesslogo/:businessId',
      {
        schema: {
          tags: ['legacy'],
          summary: 'Replace the business logo (old client): multipart field "logo"',
          consumes: ['multipart/form-data'],
          params: businessParams,
          body: logoUploadBody,
          response: { 200: envelope(legacyBusinessSchema), ...errors, 413: apiErrorSchema },
        },
      },
      async (request) => {
        await requireBusinessSelf(request, request.params.businessId);
        const account = await replaceLogo(deps, request.params.businessId, request.body.logo);
        return {
          message: 'image uploaded SUCCESSFULLY.',
          data: await toLegacyBusiness(db, config.CURRENCY, account, await ownCards(account.id)),
        };
      },
    );
  });
};
