import Fastify from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessionSchema } from '../../shared/accounts/schemas';
import { apiErrorSchema } from '../../shared/errors';
import { orderSchema } from '../../shared/orders/schemas';
import { registerErrorHandling } from '../plugins/errors';
import { compileResponseSerializer, responseSerializerCompiler } from './response-serializer';

const account = {
  id: '0190f3a2-7c1e-7b2a-9c3d-4e5f60718293',
  role: 'user' as const,
  name: 'Ada "the buyer" Obi\\',
  email: 'ada@example.test',
  username: null,
  phoneNumber: '+2348031234567',
  logoUrl: null,
  createdAt: '2026-11-29T07:00:00.000Z',
};

const order = {
  id: '0190f3a2-7c1e-7b2a-9c3d-4e5f60718294',
  reference: 'GM-ABC123',
  giftCardId: '0190f3a2-7c1e-7b2a-9c3d-4e5f60718295',
  businessName: 'Mama’s Kitchen — Ikeja 🍲',
  status: 'paid' as const,
  amount: { amount: 500000, currency: 'NGN' },
  checkoutUrl: null,
  purchasedCardId: '0190f3a2-7c1e-7b2a-9c3d-4e5f60718296',
  giftId: null,
  failureReason: null,
  createdAt: '2026-11-29T07:00:00.000Z',
};

/** What zod's serializer (fastify-type-provider-zod's) sent before: the schema's output, stringified. */
const zodAnswer = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

describe('the compiled response serializer (ADR 042)', () => {
  it('writes the same bytes as zod did for the answers it is given', () => {
    const cases: [z.ZodType, unknown][] = [
      [sessionSchema, { account, expiresAt: null }],
      [
        sessionSchema,
        { account: { ...account, username: 'ada', logoUrl: '/files/x.png' }, expiresAt: account.createdAt },
      ],
      [orderSchema, order],
      [
        orderSchema,
        { ...order, status: 'failed', purchasedCardId: null, failureReason: 'Declined: insufficient funds' },
      ],
      [
        apiErrorSchema,
        {
          code: 'VALIDATION_FAILED',
          message: 'Check the form.',
          details: { fieldErrors: { email: ['Enter an email.'] } },
        },
      ],
      [apiErrorSchema, { code: 'NOT_FOUND', message: 'No such card.' }],
    ];
    for (const [schema, data] of cases) {
      expect(compileResponseSerializer(schema)(data)).toBe(zodAnswer(schema, data));
    }
  });

  it('sends only what the schema names: a secret on the object never leaves', () => {
    const serialize = compileResponseSerializer(sessionSchema);
    const text = serialize({
      account: { ...account, passwordHash: '$argon2id$secret', codeHash: 'hash' },
      expiresAt: null,
      token: 'session-token',
    });
    expect(text).not.toMatch(/argon2id|codeHash|session-token|passwordHash/);
    expect(JSON.parse(text)).toEqual({ account, expiresAt: null });
  });

  it('keeps any text intact: quotes, backslashes, control characters, emoji and a lone surrogate', () => {
    const name = 'a"b\\c\u0000d\u001fe\u2028f\u2029g🍲h\ud800i';
    const text = compileResponseSerializer(sessionSchema)({ account: { ...account, name }, expiresAt: null });
    expect(JSON.parse(text).account.name).toBe(name);
    expect(text).toBe(zodAnswer(sessionSchema, { account: { ...account, name }, expiresAt: null }));
  });

  it('refuses an answer without a property the schema requires', () => {
    const { id: _id, ...withoutId } = order;
    expect(() => compileResponseSerializer(orderSchema)(withoutId)).toThrow();
  });

  it('answers 500 in the API shape, with nothing of the answer, when a route breaks its schema', async () => {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(responseSerializerCompiler);
    // The app's own error handler (plugins/errors.ts), watched to see which error reached it.
    registerErrorHandling(app);
    let caught: unknown;
    app.addHook('onError', async (_request, _reply, error) => {
      caught = error;
    });
    app.get('/broken', { schema: { response: { 200: orderSchema } } }, async () => ({
      ...order,
      id: undefined,
      secret: 'x',
    }));
    const response = await app.inject({ method: 'GET', url: '/broken' });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
    expect(isResponseSerializationError(caught)).toBe(true);
  });
});
