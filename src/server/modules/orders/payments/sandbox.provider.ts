import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { safeText } from '../../../../shared/text';
import { batchRows, type Db } from '../../../db/client';
import { sandboxPayments } from '../../../db/schema/orders';
import { constantTimeEqual } from '../../../lib/crypto';
import { header, InvalidSignatureError } from '../../../lib/providers';
import type { PaymentEvent, PaymentProvider } from './payment-provider';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** The documented test cards of the sandbox checkout. */
export const SANDBOX_TEST_CARDS = {
  success: '4084 0840 8408 4081',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
} as const;

export type SandboxOutcome =
  { status: 'succeeded' } | { status: 'declined'; reason: string } | { status: 'unknown-card' };

export function outcomeFor(cardNumber: string): SandboxOutcome {
  const digits = cardNumber.replace(/\D/g, '');
  if (digits === SANDBOX_TEST_CARDS.success.replace(/\D/g, '')) return { status: 'succeeded' };
  if (digits === SANDBOX_TEST_CARDS.declined.replace(/\D/g, '')) {
    return {
      status: 'declined',
      reason: 'The card was declined. No money was taken and no gift card was issued.',
    };
  }
  if (digits === SANDBOX_TEST_CARDS.insufficientFunds.replace(/\D/g, '')) {
    return {
      status: 'declined',
      reason: 'The card has insufficient funds. No money was taken and no gift card was issued.',
    };
  }
  return { status: 'unknown-card' };
}

export function signSandbox(secret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * The sandbox's event, read strictly even though it is signed: its strings reach PostgreSQL, which refuses
 * control characters in text (a NUL there was a 500), and a missing field must not reach BigInt().
 */
const sandboxBodySchema = z.object({
  event: z.enum(['payment.succeeded', 'payment.failed']),
  data: z.object({
    reference: safeText().max(100),
    amount: z.string().regex(/^\d{1,18}$/),
    currency: safeText().max(3),
    reason: safeText().max(500).optional(),
  }),
});

/**
 * The sandbox provider keeps its payments in its own table and confirms them the way a real provider does:
 * a signed webhook (HMAC-SHA256 of the raw body) sent a moment after the buyer pays, retried until the
 * app answers 2xx.
 */
export function createSandboxProvider(deps: { db: Db; secret: string }): PaymentProvider {
  return {
    name: 'sandbox',
    async startPayment(input) {
      // One round trip: a retry with the same reference gets the first payment's id back (the no-op update
      // makes RETURNING answer for the existing row, as DO NOTHING would not).
      const [payment] = await deps.db
        .insert(sandboxPayments)
        .values({
          reference: input.reference,
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          returnUrl: input.returnUrl,
        })
        .onConflictDoUpdate({
          target: sandboxPayments.reference,
          set: { reference: sql`excluded.reference` },
        })
        .returning({ id: sandboxPayments.id });
      return { checkoutUrl: `/checkout/${payment!.id}` };
    },
    paymentWithOrder: {
      name: 'order_with_sandbox_payment',
      write: (ordersWritten) => sql`
        INSERT INTO ${sandboxPayments} (id, reference, amount, currency, description, return_url)
        SELECT p.id, p.reference, p.amount, p.currency, p.description, p.return_url
          FROM ${batchRows('p', {
            id: sql`${sql.placeholder('paymentId')}::uuid[]`,
            reference: sql`${sql.placeholder('paymentReference')}::text[]`,
            amount: sql`${sql.placeholder('paymentAmount')}::bigint[]`,
            currency: sql`${sql.placeholder('paymentCurrency')}::text[]`,
            description: sql`${sql.placeholder('paymentDescription')}::text[]`,
            return_url: sql`${sql.placeholder('paymentReturnUrl')}::text[]`,
          })}
         WHERE p.reference IN (${ordersWritten})`,
      start(input) {
        const id = randomUUID();
        return {
          checkoutUrl: `/checkout/${id}`,
          values: {
            paymentId: id,
            paymentReference: input.reference,
            paymentAmount: input.amount.toString(),
            paymentCurrency: input.currency,
            paymentDescription: input.description,
            paymentReturnUrl: input.returnUrl,
          },
        };
      },
    },
    parseWebhook(rawBody, headers) {
      const signature = header(headers, SANDBOX_SIGNATURE_HEADER) ?? '';
      if (!constantTimeEqual(signature, signSandbox(deps.secret, rawBody))) {
        throw new InvalidSignatureError('sandbox webhook signature does not match');
      }
      const body = sandboxBodySchema.parse(JSON.parse(rawBody.toString('utf8')));
      const common = {
        reference: body.data.reference,
        amount: BigInt(body.data.amount),
        currency: body.data.currency,
      };
      return body.event === 'payment.succeeded'
        ? ({ type: 'payment.succeeded', ...common } satisfies PaymentEvent)
        : ({
            type: 'payment.failed',
            ...common,
            reason: body.data.reason ?? 'The payment failed.',
          } satisfies PaymentEvent);
    },
    async refund() {
      // Sandbox refunds succeed at once; there is no real money to return.
    },
  };
}

/** One sandbox payment, for its hosted checkout page (undefined when there is none). */
export async function findSandboxPayment(db: Db, id: string) {
  const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  return payment;
}

/** The buyer paid (or was declined) on the sandbox checkout: record it and schedule the webhook. */
export async function completeSandboxPayment(
  db: Db,
  paymentId: string,
  outcome: Exclude<SandboxOutcome, { status: 'unknown-card' }>,
  cardLast4: string,
  delayMs: number,
): Promise<void> {
  await db
    .update(sandboxPayments)
    .set({
      status: outcome.status,
      declineReason: outcome.status === 'declined' ? outcome.reason : null,
      cardLast4,
      webhookNextAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
    })
    .where(and(eq(sandboxPayments.id, paymentId), eq(sandboxPayments.status, 'pending')));
}

export type WebhookDeliverer = (rawBody: string, signature: string) => Promise<number>;

/**
 * Sends the webhooks that are due. Rows are leased for 30 s first (so several app instances share the work
 * without sending one twice at once), then marked delivered on a 2xx or rescheduled with back-off.
 */
export async function deliverDueSandboxWebhooks(
  deps: { db: Db; secret: string; deliver: WebhookDeliverer; log?: FastifyBaseLogger },
  limit = 20,
): Promise<number> {
  const due = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(sandboxPayments)
      .where(
        and(
          isNull(sandboxPayments.webhookDeliveredAt),
          isNotNull(sandboxPayments.webhookNextAt),
          lte(sandboxPayments.webhookNextAt, sql`now()`),
        ),
      )
      .orderBy(sandboxPayments.webhookNextAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const row of rows) {
      await tx
        .update(sandboxPayments)
        .set({
          webhookNextAt: sql`now() + interval '30 seconds'`,
          webhookAttempts: sql`${sandboxPayments.webhookAttempts} + 1`,
        })
        .where(eq(sandboxPayments.id, row.id));
    }
    return rows;
  });

  for (const payment of due) {
    const body: z.input<typeof sandboxBodySchema> = {
      event: payment.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
      data: {
        reference: payment.reference,
        amount: payment.amount.toString(),
        currency: payment.currency,
        ...(payment.declineReason ? { reason: payment.declineReason } : {}),
      },
    };
    const raw = JSON.stringify(body);
    let status = 0;
    try {
      status = await deps.deliver(raw, signSandbox(deps.secret, raw));
    } catch (error) {
      deps.log?.warn({ err: error, reference: payment.reference }, 'sandbox webhook delivery failed');
    }
    if (status >= 200 && status < 300) {
      await deps.db
        .update(sandboxPayments)
        .set({ webhookDeliveredAt: sql`now()` })
        .where(eq(sandboxPayments.id, payment.id));
    } else {
      const backoff = Math.min(2 ** (payment.webhookAttempts + 1), 60);
      await deps.db
        .update(sandboxPayments)
        .set({ webhookNextAt: sql`now() + make_interval(secs => ${backoff})` })
        .where(eq(sandboxPayments.id, payment.id));
    }
  }
  return due.length;
}
