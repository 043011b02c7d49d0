import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import { notFound } from '../../lib/app-error';
import { contentTypes } from './images';
import { STORAGE_KEY, type Storage } from './storage';

/**
 * Uploaded files, served with the type we stored (never the uploader's), nosniff, a CSP that runs nothing,
 * and a year of caching: keys are never reused, so a new logo has a new address.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<{ storage: Storage }> = async (app, { storage }) => {
  app.get(
    '/uploads/:key',
    {
      schema: {
        tags: ['uploads'],
        summary: 'An uploaded image (business logos)',
        params: z.object({ key: z.string() }),
        response: { 200: z.any().describe('The image bytes'), 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const stream = STORAGE_KEY.test(key) ? await storage.open(key) : null;
      if (!stream) throw notFound('That file');
      const extension = key.split('.').pop() as keyof typeof contentTypes;
      return reply
        .type(contentTypes[extension])
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', 'inline')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(stream);
    },
  );
};
