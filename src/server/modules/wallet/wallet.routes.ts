import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../shared/errors';
import { walletSchema } from '../../../shared/wallet/schemas';
import { requireSession } from '../../plugins/auth';
import type { AuthDeps } from '../accounts/accounts.service';
import { walletBalance } from './wallet.service';
import { findDefaultBankAccount, hasPin, toBankAccount } from './wallet.repository';

export const walletRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
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
      const id = session.account.id;
      const defaultBank = await findDefaultBankAccount(deps.db, id);
      return {
        balance: await walletBalance(deps.db, id, deps.config.CURRENCY),
        pinSet: await hasPin(deps.db, id),
        defaultBankAccount: defaultBank ? toBankAccount(defaultBank) : null,
      };
    },
  );
};
