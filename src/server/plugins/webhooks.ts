import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/errors';
import { AppError } from '../lib/app-error';
import { InvalidSignatureError } from '../lib/providers';

export const webhookResults = [
  'issued',
  'already-paid',
  'marked-failed',
  'ignored',
  'transfer-applied',
] as const;
export type WebhookResult = (typeof webhookResults)[number];

/**
 * One room's share of a provider's webhook (orders: payments; wallet: transfers). `accept` verifies the
 * signature over the raw body and reads the event (throwing InvalidSignatureError, or any error for an
 * unreadable body); it answers null for an event that is not this room's, or the work that applies it.
 */
export interface WebhookHandler {
  accept(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): null | ((log: FastifyBaseLogger) => Promise<WebhookResult>);
}

export interface WebhookOptions {
  provider: 'sandbox' | 'paystack';
  /** Asked in order; the first that accepts the event applies it. */
  handlers: WebhookHandler[];
}

/**
 * The payment provider's webhook: one address per provider (Paystack sends charges and transfers to the
 * same URL). The body is kept raw: the signature is an HMAC over the exact bytes sent, so it is checked
 * before the JSON is read. This plugin knows no room; app.ts hands it the rooms' handlers.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookOptions> = async (app, options) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    `/payments/${options.provider}/webhook`,
    {
      schema: {
        tags: ['payments'],
        summary: `Payment confirmations from ${options.provider} (signed)`,
        description:
          options.provider === 'paystack'
            ? 'Paystack events; `x-paystack-signature` is the HMAC-SHA512 of the raw body with the secret key. charge.success completes an order.'
            : 'Sandbox events; `x-sandbox-signature` is the HMAC-SHA256 of the raw body. payment.succeeded completes an order, payment.failed fails it.',
        body: z
          .custom<Buffer>((value) => Buffer.isBuffer(value), { message: 'The webhook body must be JSON.' })
          .meta({ type: 'object', description: 'The provider’s event, as JSON' }),
        response: {
          200: z.object({ received: z.literal(true), result: z.enum(webhookResults) }),
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      for (const handler of options.handlers) {
        let apply;
        try {
          apply = handler.accept(request.body, request.headers);
        } catch (error) {
          request.log.warn({ err: error }, 'payment webhook refused');
          if (error instanceof InvalidSignatureError) {
            throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match.');
          }
          throw new AppError('VALIDATION_FAILED', 'The webhook body could not be read.');
        }
        if (!apply) continue;
        const result = await apply(request.log);
        request.log.info({ result }, 'payment webhook');
        return { received: true as const, result };
      }
      request.log.info({ result: 'ignored' }, 'payment webhook');
      return { received: true as const, result: 'ignored' as const };
    },
  );
};
