import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { moneySchema } from '../../../shared/accounts/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { requireSession } from '../../plugins/auth';
import type { AuthDeps } from '../auth/auth.service';
import { walletBalance } from '../ledger/ledger.service';

export const walletRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.get(
    '/wallet',
    {
      schema: {
        tags: ['wallet'],
        summary: "The signed-in business's wallet",
        description: 'The available balance is the balance of the wallet account in the ledger.',
        response: {
          200: z.object({ balance: moneySchema }).meta({ id: 'Wallet' }),
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return { balance: await walletBalance(deps.db, session.account.id, deps.config.CURRENCY) };
    },
  );
};
