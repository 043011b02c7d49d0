/**
 * What the app needs from a payment provider. Implementations: the built-in sandbox (default) and Paystack.
 * A confirmation is only ever trusted after `parseWebhook` has verified its signature over the raw body.
 */
export interface StartPayment {
  reference: string;
  amount: bigint;
  currency: string;
  email: string;
  description: string;
  /** Where the provider sends the buyer's browser afterwards (never proof of payment by itself). */
  returnUrl: string;
}

export type PaymentEvent =
  | { type: 'payment.succeeded'; reference: string; amount: bigint; currency: string }
  | { type: 'payment.failed'; reference: string; amount: bigint; currency: string; reason: string }
  | { type: 'ignored'; event: string };

export interface PaymentProvider {
  readonly name: 'sandbox' | 'paystack';
  startPayment(input: StartPayment): Promise<{ checkoutUrl: string }>;
  /** Verifies the signature (constant time) and reads the event; throws InvalidSignatureError. */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent;
  refund(reference: string, amount: bigint): Promise<void>;
}
