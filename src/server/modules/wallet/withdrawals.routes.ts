import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import {
  withdrawalMessages,
  withdrawalPageSchema,
  withdrawalPinSchema as pin,
  withdrawalSchema,
} from '../../../shared/wallet/schemas';
import { requireSession } from '../../plugins/auth';
import * as withdrawals from './withdrawals.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  423: apiErrorSchema,
  429: apiErrorSchema,
};

export const withdrawalRoutes: FastifyPluginAsyncZod<withdrawals.WithdrawalDeps> = async (app, deps) => {
  app.post(
    '/withdrawals',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Withdraw from the wallet to a bank account (PIN required)',
        description:
          'Amount in minor units. Without bankAccountId the default account is used. Send an `Idempotency-Key`: a retry with the same key and body returns the first withdrawal (200) and moves no money.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: z
          .object({
            amount: z
              .number({ error: withdrawalMessages.amountRequired })
              .int('an amount has at most 2 decimal places (send minor units: 100000 is ₦1,000.00)')
              .positive('the amount must be more than 0'),
            pin,
            bankAccountId: z.uuid().optional(),
          })
          .meta({ id: 'NewWithdrawal' }),
        response: { 200: withdrawalSchema, 201: withdrawalSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const { withdrawal, replayed } = await withdrawals.requestWithdrawal(
        { ...deps, log: request.log },
        session.account.id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(replayed ? 200 : 201).send(withdrawal);
    },
  );

  app.get(
    '/withdrawals',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Your withdrawals, newest first',
        querystring: z.object({
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(10),
        }),
        response: { 200: withdrawalPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return withdrawals.listMyWithdrawals(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/withdrawals/:id',
    {
      schema: {
        tags: ['wallet'],
        summary: 'One of your withdrawals',
        params: z.object({ id: z.uuid() }),
        response: { 200: withdrawalSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return withdrawals.getWithdrawal(deps, session.account.id, request.params.id);
    },
  );
};
