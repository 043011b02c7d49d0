import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../shared/errors';
import { walletSchema } from '../../../shared/wallet/schemas';
import { requireSession } from '../../plugins/auth';
import type { CoreDeps } from '../../lib/deps';
import { getWallet } from './wallet.service';

export const walletRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/wallet',
    {
      schema: {
        tags: ['wallet'],
        summary: "The signed-in business's wallet: balance and set-up (PIN, default bank account)",
        description: 'The available balance is the balance of the wallet account in the ledger.',
        response: { 200: walletSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return getWallet(deps, session.account.id);
    },
  );
};
