import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { majorAmountSchema } from '../../../shared/catalogue/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { withdrawalPinSchema, withdrawalSchema } from '../../../shared/wallet/schemas';
import { requireBusinessSelf } from '../../plugins/auth';
import * as withdrawals from '../wallet/withdrawals.service';
import { envelope } from '../../../shared/legacy/schemas';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  423: apiErrorSchema,
  429: apiErrorSchema,
};

/** The old client's POST /api/withdraw-money/{businessId} {amount} (naira): to the default account. */
export const legacyWithdrawalRoutes: FastifyPluginAsyncZod<withdrawals.WithdrawalDeps> = async (
  app,
  deps,
) => {
  app.post(
    '/withdraw-money/:businessId',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Withdraw to the default bank account (old client); needs the transaction PIN',
        description:
          'Send an `Idempotency-Key`: a retry with the same key and body returns the first withdrawal (200) ' +
          'and moves no money; the same key with a different body is 409 IDEMPOTENCY_CONFLICT. Without a ' +
          `key, an identical request (same amount, to the default account) within ${withdrawals.LEGACY_SAME_WITHDRAWAL_SECONDS} s ` +
          'of the last one returns that withdrawal (200) instead of making another.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        params: z.object({ businessId: z.uuid({ error: 'That is not a business id.' }) }),
        body: z.object({
          amount: majorAmountSchema(deps.config.CURRENCY, Number.MAX_SAFE_INTEGER).describe(
            'Amount in naira',
          ),
          pin: withdrawalPinSchema
            .optional()
            .describe('The transaction PIN (the old client did not send one; Giftmart requires it)'),
        }),
        response: { 200: envelope(withdrawalSchema), 201: envelope(withdrawalSchema), ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireBusinessSelf(request, request.params.businessId);
      const { withdrawal, replayed } = await withdrawals.requestLegacyWithdrawal(
        { ...deps, log: request.log },
        session.account.id,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.status(replayed ? 200 : 201).send({ message: 'Withdrawal requested', data: withdrawal });
    },
  );
};
