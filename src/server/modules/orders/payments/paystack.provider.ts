import { constantTimeEqual } from '../../../lib/crypto';
import {
  header,
  InvalidSignatureError,
  PAYSTACK_API,
  PAYSTACK_SIGNATURE_HEADER,
  signPaystack,
} from '../../../lib/providers';
import type { PaymentEvent, PaymentProvider } from './payment-provider';

type Fetch = typeof fetch;

interface PaystackEvent {
  event: string;
  data: { reference: string; amount: number; currency: string; status?: string; gateway_response?: string };
}

/**
 * Paystack (https://paystack.com/docs/api/transaction/#initialize): amounts in kobo, our reference as the
 * transaction reference, the buyer returned to callback_url, confirmation by the charge.success webhook.
 * `fetchImpl` is injectable so request building is tested without the network.
 */
export function createPaystackProvider(deps: { secretKey: string; fetchImpl?: Fetch }): PaymentProvider {
  const doFetch = deps.fetchImpl ?? fetch;
  async function call<T>(path: string, body: unknown): Promise<T> {
    const response = await doFetch(`${PAYSTACK_API}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${deps.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as {
      status?: boolean;
      message?: string;
      data?: T;
    };
    if (!response.ok || !json.status || !json.data) {
      throw new Error(`Paystack ${path} failed: ${response.status} ${json.message ?? ''}`.trim());
    }
    return json.data;
  }

  return {
    name: 'paystack',
    async startPayment(input) {
      const data = await call<{ authorization_url: string; reference: string }>('/transaction/initialize', {
        email: input.email,
        amount: input.amount.toString(),
        currency: input.currency,
        reference: input.reference,
        callback_url: input.returnUrl,
        metadata: { description: input.description },
      });
      return { checkoutUrl: data.authorization_url };
    },
    parseWebhook(rawBody, headers) {
      const signature = header(headers, PAYSTACK_SIGNATURE_HEADER) ?? '';
      if (!constantTimeEqual(signature, signPaystack(deps.secretKey, rawBody))) {
        throw new InvalidSignatureError('x-paystack-signature does not match');
      }
      const body = JSON.parse(rawBody.toString('utf8')) as PaystackEvent;
      if (body.event !== 'charge.success') return { type: 'ignored', event: body.event };
      return {
        type: 'payment.succeeded',
        reference: body.data.reference,
        amount: BigInt(body.data.amount),
        currency: body.data.currency,
      } satisfies PaymentEvent;
    },
    async refund(reference, amount) {
      await call('/refund', { transaction: reference, amount: amount.toString() });
    },
  };
}
