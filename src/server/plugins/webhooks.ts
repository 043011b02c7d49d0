import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/errors';
import { AppError } from '../lib/app-error';
import { confirmPayment, type PurchaseDeps } from '../modules/orders/orders.service';
import type { PayoutProvider } from '../modules/wallet/payouts/payout-provider';
import { applyTransferEvent } from '../modules/wallet/withdrawals.service';
import { InvalidSignatureError } from '../modules/orders/payments/payment-provider';

/**
 * The payment provider's webhook. The body is kept raw: the signature is an HMAC over the exact bytes
 * sent, so it is checked before the JSON is read. Only the configured provider's path exists.
 */
export const webhookRoutes: FastifyPluginAsyncZod<PurchaseDeps & { payouts?: PayoutProvider }> = async (
  app,
  deps,
) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    `/payments/${deps.payments.name}/webhook`,
    {
      schema: {
        tags: ['payments'],
        summary: `Payment confirmations from ${deps.payments.name} (signed)`,
        description:
          deps.payments.name === 'paystack'
            ? 'Paystack events; `x-paystack-signature` is the HMAC-SHA512 of the raw body with the secret key. charge.success completes an order.'
            : 'Sandbox events; `x-sandbox-signature` is the HMAC-SHA256 of the raw body. payment.succeeded completes an order, payment.failed fails it.',
        body: z
          .custom<Buffer>((value) => Buffer.isBuffer(value), { message: 'The webhook body must be JSON.' })
          .meta({ type: 'object', description: 'The provider’s event, as JSON' }),
        response: {
          200: z.object({
            received: z.literal(true),
            result: z.enum(['issued', 'already-paid', 'marked-failed', 'ignored', 'transfer-applied']),
          }),
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      let event;
      try {
        event = deps.payments.parseWebhook(request.body, request.headers);
      } catch (error) {
        request.log.warn({ err: error }, 'payment webhook refused');
        if (error instanceof InvalidSignatureError) {
          throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match.');
        }
        throw new AppError('VALIDATION_FAILED', 'The webhook body could not be read.');
      }
      if (event.type === 'ignored' && deps.payouts?.name === deps.payments.name) {
        // One webhook address per provider (Paystack sends charges and transfers to the same URL).
        const transfer = deps.payouts.parseWebhook(request.body, request.headers);
        if (transfer.type !== 'ignored') {
          const known = await applyTransferEvent(
            { ...deps, payouts: deps.payouts, log: request.log },
            transfer.reference,
            transfer.type === 'transfer.success'
              ? { status: 'success' }
              : { status: 'failed', reason: transfer.reason },
          );
          if (!known) throw new AppError('NOT_FOUND', 'That withdrawal was not found.');
          return { received: true as const, result: 'transfer-applied' as const };
        }
      }
      const result = await confirmPayment({ ...deps, log: request.log }, event);
      request.log.info(
        { result, event: event.type, reference: 'reference' in event ? event.reference : undefined },
        'payment webhook',
      );
      return { received: true as const, result };
    },
  );
};
