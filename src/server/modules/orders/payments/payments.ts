import type { FastifyBaseLogger } from 'fastify';
import { createHmac } from 'node:crypto';
import type { Db } from '../../../db/client';
import type { Config } from '../../../env';
import { createPaystackProvider } from './paystack.provider';
import type { PaymentProvider } from './payment-provider';
import {
  createSandboxProvider,
  deliverDueSandboxWebhooks,
  SANDBOX_SIGNATURE_HEADER,
  type WebhookDeliverer,
} from './sandbox.provider';

/** The sandbox's webhook signing secret, derived from SESSION_SECRET (both ends are this app). */
export function sandboxSecret(config: Config): string {
  return createHmac('sha256', config.SESSION_SECRET).update('giftmart sandbox webhooks').digest('hex');
}

export function createPaymentProvider(config: Config, db: Db): PaymentProvider {
  return config.PAYMENT_PROVIDER === 'paystack'
    ? createPaystackProvider({ secretKey: config.PAYSTACK_SECRET_KEY! })
    : createSandboxProvider({ db, secret: sandboxSecret(config) });
}

/**
 * The sandbox's webhook sender, run by the server (not by tests, which deliver through app.inject): it
 * POSTs due webhooks to this app's own webhook address, like the provider's servers would.
 */
export function startSandboxWebhookWorker(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  intervalMs = 200,
): () => Promise<void> {
  const url = `${(config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '')}/api/v1/payments/sandbox/webhook`;
  const deliver: WebhookDeliverer = async (rawBody, signature) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      body: rawBody,
      signal: AbortSignal.timeout(10_000),
    });
    return response.status;
  };
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running
      .then(() =>
        stopped ? 0 : deliverDueSandboxWebhooks({ db, secret: sandboxSecret(config), deliver, log }),
      )
      .catch((error: unknown) => log.error({ err: error }, 'sandbox webhook worker failed'));
  }, intervalMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
