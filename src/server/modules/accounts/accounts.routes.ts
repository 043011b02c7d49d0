import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginSchema,
  registerBusinessSchema,
  registerUserSchema,
  roleSchema,
  sessionSchema,
  tokenResponseSchema,
  accountSchema,
} from '../../../shared/accounts/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { clearSessionCookie, requireSession, setSessionCookie } from '../../plugins/auth';
import { toAccount } from './accounts.mapper';
import * as auth from './accounts.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

export const accountRoutes: FastifyPluginAsyncZod<auth.AuthDeps> = async (app, deps) => {
  const production = deps.config.NODE_ENV === 'production';

  app.post(
    '/businesses',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a business',
        body: registerBusinessSchema,
        response: { 201: accountSchema, ...errors },
      },
    },
    async (request, reply) => {
      const account = await auth.registerBusiness(deps, request.body);
      return reply.status(201).send(toAccount(account));
    },
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a user',
        body: registerUserSchema,
        response: { 201: accountSchema, ...errors },
      },
    },
    async (request, reply) => {
      const account = await auth.registerUser(deps, request.body);
      return reply.status(201).send(toAccount(account));
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in (sets the session cookie)',
        description:
          'A user may send a username in `email`. With `role`, an account of the other role is refused. "remember" gives a 30-day cookie; otherwise the cookie ends with the browser session.',
        body: loginSchema.extend({ role: roleSchema.optional() }),
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { role, ...credentials } = request.body;
      const issued = await auth.logIn(deps, credentials, { ip: request.ip, role, kind: 'cookie' });
      setSessionCookie(reply, production, issued);
      return auth.sessionView({ ...issued, account: toAccount(issued.account) });
    },
  );

  app.post(
    '/auth/tokens',
    {
      schema: {
        tags: ['auth'],
        summary: 'Get a Bearer token for an API client',
        description:
          'Send the token as `Authorization: Bearer <token>`. It lasts 30 days; DELETE /auth/session revokes it.',
        body: loginSchema.extend({ role: roleSchema.optional() }).omit({ remember: true }),
        response: { 201: tokenResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { role, ...credentials } = request.body;
      const issued = await auth.logIn(
        deps,
        { ...credentials, remember: true },
        { ip: request.ip, role, kind: 'bearer' },
      );
      return reply.status(201).send({
        ...auth.sessionView({ ...issued, account: toAccount(issued.account) }),
        token: issued.token,
      });
    },
  );

  app.get(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'The current session',
        response: { 200: sessionSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return auth.sessionView({ ...session, account: toAccount(session.account) });
    },
  );

  app.delete(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out: revokes this session (cookie or Bearer token)',
        response: { 204: z.null().describe('Logged out'), 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await auth.logOut(deps, session.sessionId);
      clearSessionCookie(reply, production);
      return reply.status(204).send(null);
    },
  );
};
