import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PublicConfig } from '../../shared/public-config';
import type { Config } from '../env';
import type { CoreDeps } from '../lib/deps';

export const publicConfigSchema = z
  .object({ currency: z.string(), supportEmail: z.string() })
  .meta({ id: 'PublicConfig' });

/** What GET /api/v1/config answers (and the pre-rendered pages carry, plugins/web.ts). */
export function publicConfigOf(config: Pick<Config, 'CURRENCY' | 'SUPPORT_EMAIL'>): PublicConfig {
  return { currency: config.CURRENCY, supportEmail: config.SUPPORT_EMAIL };
}

const healthSchema = z
  .object({ status: z.enum(['ok', 'degraded']), database: z.enum(['up', 'down']), uptimeSeconds: z.number() })
  .meta({ id: 'Health' });

/** Health for load balancers (under /api) and the settings the web app needs (under /api/v1). */
export const healthRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['meta'],
        summary: 'Liveness and database status',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      let database: 'up' | 'down' = 'up';
      try {
        await deps.db.execute(sql`SELECT 1`);
      } catch {
        database = 'down';
      }
      const body = {
        status: database === 'up' ? ('ok' as const) : ('degraded' as const),
        database,
        uptimeSeconds: Math.round(process.uptime()),
      };
      return reply.status(database === 'up' ? 200 : 503).send(body);
    },
  );
};

export const configRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/config',
    {
      schema: {
        tags: ['meta'],
        summary: 'Public settings the web app needs',
        response: { 200: publicConfigSchema },
      },
    },
    async () => publicConfigOf(deps.config),
  );
};
