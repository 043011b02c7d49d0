import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginSchema, registerBusinessSchema, registerUserSchema } from '../../../shared/accounts/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { setSessionCookie } from '../../plugins/auth';
import type { AccountRow } from '../accounts/accounts.service';
import * as auth from '../accounts/accounts.service';
import { listOwnCards } from '../catalogue/catalogue.service';
import { LEGACY_LIST_LIMIT } from './legacy-cards.routes';
import { envelope, legacyBusinessSchema } from '../../../shared/legacy/schemas';
import { toLegacyBusiness } from './legacy-shapes';

/**
 * The old back end's paths (seed §7), kept so its client keeps working: same payloads, `{ message, data }`
 * answers, real status codes, and the same rules and session cookie as /api/v1.
 */
const legacyUserSession = z
  .object({
    _id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    phoneNumber: z.string(),
  })
  .meta({ id: 'LegacyUserSession' });

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

export const legacyAuthRoutes: FastifyPluginAsyncZod<auth.AuthDeps> = async (app, deps) => {
  const production = deps.config.NODE_ENV === 'production';
  // The old client stores its login and stays signed in across browser restarts, so its login is always a
  // "remember me" one (a REMEMBER_MS cookie), not a browser-session cookie it would lose on restart.

  async function businessSession(account: AccountRow) {
    const cards = await listOwnCards(deps, account.id, { limit: LEGACY_LIST_LIMIT, sort: 'newest' });
    return toLegacyBusiness(deps.db, deps.config.CURRENCY, account, cards.items);
  }

  function userSession(account: AccountRow): z.infer<typeof legacyUserSession> {
    return {
      _id: account.id,
      name: account.name,
      username: account.username ?? '',
      email: account.email,
      phoneNumber: account.phone,
    };
  }

  app.post(
    '/registerbusiness',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Register a business (old client)',
        body: registerBusinessSchema,
        response: { 201: envelope(legacyBusinessSchema), ...errors },
      },
    },
    async (request, reply) => {
      const account = await auth.registerBusiness(deps, request.body);
      return reply
        .status(201)
        .send({ message: 'Business registered successfully', data: await businessSession(account) });
    },
  );

  app.post(
    '/registeruser',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Register a user (old client)',
        body: registerUserSchema,
        response: { 201: envelope(legacyUserSession), ...errors },
      },
    },
    async (request, reply) => {
      const account = await auth.registerUser(deps, request.body);
      return reply.status(201).send({ message: 'User registered successfully', data: userSession(account) });
    },
  );

  app.post(
    '/loginbusiness',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Log in as a business (old client); also sets a 30-day ("remember me") session cookie',
        body: loginSchema,
        response: { 200: envelope(legacyBusinessSchema), ...errors },
      },
    },
    async (request, reply) => {
      const issued = await auth.logIn(
        deps,
        { ...request.body, remember: true },
        {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          role: 'business',
          kind: 'cookie',
        },
      );
      setSessionCookie(reply, production, issued);
      return { message: 'Login successful', data: await businessSession(issued.account) };
    },
  );

  app.post(
    '/loginuser',
    {
      schema: {
        tags: ['legacy'],
        summary: 'Log in as a user (old client); also sets a 30-day ("remember me") session cookie',
        body: loginSchema,
        response: { 200: envelope(legacyUserSession), ...errors },
      },
    },
    async (request, reply) => {
      const issued = await auth.logIn(
        deps,
        { ...request.body, remember: true },
        { ip: request.ip, userAgent: request.headers['user-agent'], role: 'user', kind: 'cookie' },
      );
      setSessionCookie(reply, production, issued);
      return { message: 'Login successful', data: userSession(issued.account) };
    },
  );
};
