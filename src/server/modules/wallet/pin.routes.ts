import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../shared/errors';
import { changePinSchema, createPinSchema, pinStatusSchema } from '../../../shared/wallet/pin';
import { requireSession } from '../../plugins/auth';
import type { CoreDeps } from '../../lib/deps';
import { changePin, createPin, getPinStatus } from './pin.service';

/** The business's transaction PIN: status, create, change. The PIN itself is never returned. */
export const pinRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/wallet/pin',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Whether the transaction PIN is set, and whether wrong tries have locked withdrawals',
        response: { 200: pinStatusSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return getPinStatus(deps.db, session.account.id);
    },
  );

  app.post(
    '/wallet/pin',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Create the transaction PIN (4 digits, typed twice; not 0000, 1234 or 4321-style)',
        description:
          'Stored as a keyed hash (HMAC-SHA256), never as typed. 409 PIN_ALREADY_SET when one exists: change it instead.',
        body: createPinSchema,
        response: {
          201: pinStatusSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const status = await createPin(deps, session.account.id, request.body);
      return reply.status(201).send(status);
    },
  );

  app.put(
    '/wallet/pin',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Change the transaction PIN, proving it is you with the current PIN or the account password',
        description:
          'A wrong currentPin counts toward the lock-out (403 PIN_INCORRECT, then 423 PIN_LOCKED). A wrong ' +
          'password answers 403 FORBIDDEN and is rate limited (429). Changing it with the password lifts a lock. ' +
          'After 3 lock-outs in 24 hours the PIN is blocked (423 PIN_RESET_REQUIRED, also for withdrawals and ' +
          'bank-account changes) until a new one is set here with the password alone.',
        body: changePinSchema,
        response: {
          200: pinStatusSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          423: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return changePin(deps, session.account.id, request.body);
    },
  );
};
