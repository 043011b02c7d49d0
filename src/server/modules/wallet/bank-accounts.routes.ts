import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import {
  bankListSchema,
  createBankAccountSchema,
  resolveBankAccountSchema,
  resolvedBankAccountSchema,
  setDefaultBankAccountSchema,
} from '../../../shared/wallet/bank-accounts';
import { NIGERIAN_BANKS } from '../../../shared/wallet/banks';
import { bankAccountSchema } from '../../../shared/wallet/schemas';
import { requireSession } from '../../plugins/auth';
import * as service from './bank-accounts.service';

const signedIn = { 401: apiErrorSchema, 403: apiErrorSchema };
/** Where payouts go is guarded by the transaction PIN, with the withdrawals' wrong-try count and lock-out. */
const pinErrors = { 423: apiErrorSchema };
const pinDescription =
  'Needs the transaction PIN in `pin`, checked like a withdrawal: 400 PIN_REQUIRED without a PIN set, ' +
  '403 PIN_INCORRECT for a wrong one (counted), 423 PIN_LOCKED after too many. The owner is notified ' +
  '(notification and e-mail).';
const idParams = z.object({ id: z.uuid({ error: 'That is not a bank account id.' }) });

export const bankAccountRoutes: FastifyPluginAsyncZod<service.BankAccountDeps> = async (app, deps) => {
  app.get(
    '/banks',
    {
      schema: {
        tags: ['bank accounts'],
        summary: 'The Nigerian banks a business can withdraw to (name and code)',
        response: { 200: bankListSchema },
      },
    },
    async () => ({ items: NIGERIAN_BANKS.map((bank) => ({ code: bank.code, name: bank.name })) }),
  );

  app.post(
    '/bank-accounts/resolve',
    {
      schema: {
        tags: ['bank accounts'],
        summary: 'Look up the name on a bank account, for the business to confirm before saving it',
        description:
          'The bank must be on the list and, for 3-digit bank codes, the NUBAN check digit must agree ' +
          '(400, before the bank is asked). 422 BANK_ACCOUNT_NOT_FOUND when the bank has no such account. ' +
          'Lookups are limited per business (429).',
        body: resolveBankAccountSchema,
        response: {
          200: resolvedBankAccountSchema,
          400: apiErrorSchema,
          ...signedIn,
          422: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return service.resolveBankAccount(deps, session.account.id, request.body);
    },
  );

  app.get(
    '/bank-accounts',
    {
      schema: {
        tags: ['bank accounts'],
        summary: "The signed-in business's bank accounts: the default first, then newest first",
        response: {
          200: z.object({ items: z.array(bankAccountSchema) }).meta({ id: 'BankAccountList' }),
          ...signedIn,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return { items: await service.listBankAccounts(deps, session.account.id) };
    },
  );

  app.post(
    '/bank-accounts',
    {
      schema: {
        tags: ['bank accounts'],
        summary: 'Save a bank account whose name the business confirmed',
        description:
          'The name is resolved again; 409 ACCOUNT_NAME_MISMATCH (with details.accountName) when it is no ' +
          'longer the confirmed one. 409 BANK_ACCOUNT_EXISTS for an account already added. The first ' +
          'account becomes the default. ' +
          pinDescription,
        body: createBankAccountSchema,
        response: {
          201: bankAccountSchema,
          400: apiErrorSchema,
          ...signedIn,
          409: apiErrorSchema,
          422: apiErrorSchema,
          ...pinErrors,
          429: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      return reply.status(201).send(await service.addBankAccount(deps, session.account.id, request.body));
    },
  );

  app.patch(
    '/bank-accounts/:id/default',
    {
      schema: {
        tags: ['bank accounts'],
        summary: 'Make one of your bank accounts the default (the old default becomes an other account)',
        description: pinDescription,
        params: idParams,
        body: setDefaultBankAccountSchema,
        response: {
          200: bankAccountSchema,
          400: apiErrorSchema,
          ...signedIn,
          404: apiErrorSchema,
          ...pinErrors,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return service.setDefaultBankAccount(deps, session.account.id, request.params.id, request.body);
    },
  );

  app.delete(
    '/bank-accounts/:id',
    {
      schema: {
        tags: ['bank accounts'],
        summary: 'Remove one of your bank accounts',
        description:
          'Refused (409 BANK_ACCOUNT_IN_USE) while a withdrawal to it is requested or processing. ' +
          'Removing the default leaves no default until the business makes another account the default.',
        params: idParams,
        response: {
          204: z.null().describe('Removed'),
          400: apiErrorSchema,
          ...signedIn,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      await service.removeBankAccount(deps, session.account.id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
