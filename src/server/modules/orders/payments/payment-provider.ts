import type { SQL } from 'drizzle-orm';
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
  /**
   * Only a provider that keeps its payments in our own database (the sandbox): the payment started in the
   * statement that writes its order (issue 14: one write where three were, and no order without its payment;
   * ADR 019). A provider reached over the network has no such thing: there, the order is written first and
   * the payment started after it.
   */
  paymentWithOrder?: PaymentWithOrder;
  /** Verifies the signature (constant time) and reads the event; throws InvalidSignatureError. */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent;
  refund(reference: string, amount: bigint): Promise<void>;
}

/** A payment written in its order's statement, as a statement built once (ADR 021). */
export interface PaymentWithOrder {
  /** The name the order's statement with this write is prepared under. */
  readonly name: string;
  /**
   * The payments' write, run as a CTE of the orders' statement (one or many orders, ADR 027), for the orders
   * whose references `ordersWritten` (a subquery) answers. Fixed text: its values are `sql.placeholder`s of
   * arrays, one element per order, each filled from that order's `start` `values`.
   */
  write(ordersWritten: SQL): SQL;
  /** The checkout URL the payment will have, and the values of `write`'s placeholders. */
  start(input: StartPayment): { checkoutUrl: string; values: Record<string, unknown> };
}
