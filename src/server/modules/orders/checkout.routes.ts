import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyError } from 'fastify';
import { z } from 'zod';
import { formatMoney } from '../../../shared/money';
import { CHECKOUT_CANCELLED_REASON } from '../../../shared/orders/schemas';
import type { PurchaseDeps } from './orders.service';
import {
  completeSandboxPayment,
  findSandboxPayment,
  outcomeFor,
  SANDBOX_TEST_CARDS,
} from './payments/sandbox.provider';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Only the path of the return address: the sandbox is served by this app, so the buyer stays on its origin. */
const localPath = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;background:#f1f5f9;color:#0f172a}
  .bar{background:#fef3c7;color:#78350f;text-align:center;padding:8px 12px;font-size:14px;font-weight:600}
  main{max-width:440px;margin:32px auto;padding:0 16px}
  .card{background:#fff;border-radius:16px;box-shadow:0 4px 24px rgba(15,23,42,.08);padding:24px}
  h1{font-size:20px;margin:0 0 4px}.muted{color:#475569;font-size:14px;margin:0}
  .amount{font-size:32px;font-weight:800;margin:16px 0}
  label{display:block;font-size:14px;font-weight:600;margin:14px 0 6px}
  input{width:100%;padding:10px 12px;border:1px solid #94a3b8;border-radius:8px;font-size:16px}
  .row{display:flex;gap:12px}.row>div{flex:1}
  button{width:100%;margin-top:20px;padding:12px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font-size:16px;font-weight:700;cursor:pointer}
  button.secondary{background:#fff;color:#334155;border:1px solid #94a3b8;margin-top:10px}
  .error{background:#fef2f2;color:#991b1b;border-radius:8px;padding:10px 12px;font-size:14px;margin-top:12px}
  .tests{margin-top:20px;font-size:14px;color:#334155}.tests code{font-weight:700}
  ul{padding-left:18px}`;

const formUnreadable = 'Fill in the card details and choose Pay or Cancel payment.';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>
<div class="bar" role="note">Sandbox checkout: test mode, no real money moves</div><main>${body}</main></body></html>`;
}

/**
 * The sandbox provider's hosted checkout, as a real provider would host it: a plain HTML form (no script),
 * the documented test cards, and a redirect back to the shop. The redirect proves nothing; the signed
 * webhook that follows is what completes the order.
 */
export const checkoutRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const load = (id: string) => findSandboxPayment(deps.db, id);

  function form(payment: NonNullable<Awaited<ReturnType<typeof load>>>, error?: string) {
    const amount = formatMoney({ amount: Number(payment.amount), currency: payment.currency });
    return page(
      `Pay ${amount} · Sandbox checkout`,
      `<div class="card"><h1>Pay Giftmart</h1><p class="muted">${escape(payment.description)}</p>
<p class="amount">${amount}</p>
<form method="post" novalidate>
<label for="card">Card number</label><input id="card" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4084 0840 8408 4081" required>
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12/30"></div>
<div><label for="cvv">CVV</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" placeholder="408"></div></div>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<button type="submit" name="action" value="pay">Pay ${amount}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel payment</button>
</form>
<div class="tests"><p><strong>Test cards</strong> (any expiry and CVV):</p><ul>
<li><code>${SANDBOX_TEST_CARDS.success}</code>: payment succeeds</li>
<li><code>${SANDBOX_TEST_CARDS.declined}</code>: declined</li>
<li><code>${SANDBOX_TEST_CARDS.insufficientFunds}</code>: insufficient funds</li></ul></div></div>`,
    );
  }

  const notFoundPage = () =>
    page(
      'Payment not found',
      '<div class="card"><h1>Payment not found</h1><p class="muted">This checkout link is not valid.</p></div>',
    );

  const finishedPage = (payment: NonNullable<Awaited<ReturnType<typeof load>>>) =>
    page(
      'Payment complete',
      `<div class="card"><h1>This payment is finished</h1><p class="muted">You can go back to Giftmart.</p><p><a href="${escape(localPath(payment.returnUrl))}">Back to Giftmart</a></p></div>`,
    );

  /**
   * These routes answer a person with HTML, so their errors do too (the app's handler answers JSON, which
   * the routes' HTML response schemas refused: a 500). Unknown or malformed id: the not-found page; a form
   * that does not validate (or cannot be read): the form again with the problem in words.
   */
  app.setErrorHandler<FastifyError>(async (error, request, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    const id = (request.params as { paymentId?: unknown } | undefined)?.paymentId;
    const payment = typeof id === 'string' && z.uuid().safeParse(id).success ? await load(id) : undefined;
    if (!payment) return reply.status(404).send(notFoundPage());
    const invalid = hasZodFastifySchemaValidationErrors(error);
    const status = invalid ? 400 : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'sandbox checkout failed');
      return reply
        .status(500)
        .send(
          page(
            'Something went wrong',
            '<div class="card"><h1>Something went wrong on our side</h1><p class="muted">Try again in a moment.</p></div>',
          ),
        );
    }
    if (payment.status !== 'pending') return reply.status(400).send(finishedPage(payment));
    const message = invalid ? (error.validation[0]?.message ?? formUnreadable) : formUnreadable;
    return reply.status(status).send(form(payment, message));
  });

  const params = z.object({ paymentId: z.uuid() });

  app.get(
    '/checkout/:paymentId',
    {
      schema: {
        tags: ['payments'],
        summary: 'Sandbox hosted checkout page (HTML)',
        params,
        produces: ['text/html'],
        response: { 200: z.string(), 404: z.string() },
      },
    },
    async (request, reply) => {
      const payment = await load(request.params.paymentId);
      reply.type('text/html').header('cache-control', 'no-store');
      if (!payment) return reply.status(404).send(notFoundPage());
      if (payment.status !== 'pending') return finishedPage(payment);
      return form(payment);
    },
  );

  app.post(
    '/checkout/:paymentId',
    {
      schema: {
        tags: ['payments'],
        summary: 'Sandbox checkout form: pay with a test card or cancel; redirects back to the shop',
        params,
        consumes: ['application/x-www-form-urlencoded'],
        body: z.object(
          {
            cardNumber: z
              .string()
              .max(40, 'The card number is too long: enter the digits on the card.')
              .optional(),
            expiry: z.string().max(10, 'Enter the expiry as MM/YY.').optional(),
            cvv: z.string().max(10, 'The CVV is the 3 or 4 digits on the back of the card.').optional(),
            action: z.enum(['pay', 'cancel'], { error: 'Choose Pay or Cancel payment.' }).default('pay'),
          },
          { error: formUnreadable },
        ),
        response: { 303: z.null(), 400: z.string(), 404: z.string() },
      },
    },
    async (request, reply) => {
      const payment = await load(request.params.paymentId);
      if (!payment) return reply.status(404).type('text/html').send(notFoundPage());
      const back = localPath(payment.returnUrl);
      if (payment.status !== 'pending') return reply.redirect(back, 303);
      if (request.body.action === 'cancel') {
        await completeSandboxPayment(
          deps.db,
          payment.id,
          { status: 'declined', reason: CHECKOUT_CANCELLED_REASON },
          '',
          deps.config.SANDBOX_WEBHOOK_DELAY_MS,
        );
        return reply.redirect(back, 303);
      }
      const number = request.body.cardNumber ?? '';
      const outcome = outcomeFor(number);
      if (outcome.status === 'unknown-card') {
        return reply
          .status(400)
          .type('text/html')
          .send(form(payment, 'This is the sandbox: pay with one of the test cards listed below.'));
      }
      await completeSandboxPayment(
        deps.db,
        payment.id,
        outcome,
        number.replace(/\D/g, '').slice(-4),
        deps.config.SANDBOX_WEBHOOK_DELAY_MS,
      );
      return reply.redirect(back, 303);
    },
  );
};
