import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordSchema,
  passwordResetAcceptedSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  sessionIdParamsSchema,
  signedInDevicesSchema,
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
import * as passwords from './passwords.service';
import * as devices from './sessions.service';

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
      const issued = await auth.logIn(deps, credentials, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        role,
        kind: 'cookie',
      });
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
        { ip: request.ip, userAgent: request.headers['user-agent'], role, kind: 'bearer' },
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
  app.post(
    '/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password (signs out every other session)',
        description:
          'The current password is checked like a login and a wrong one counts against the same limit. The new one follows the registration rules and must differ from the old. Every other session of the account (cookie or Bearer) ends; this one stays. The owner is told by notification and mail.',
        body: changePasswordSchema,
        response: { 204: z.null().describe('Changed'), ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await passwords.changePassword(
        deps,
        { accountId: session.account.id, sessionId: session.sessionId },
        request.body,
        { ip: request.ip },
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Forgot password: mail a single-use reset link',
        description:
          'Answers 202 with the same body whether or not the address has an account. When it has, a link to /reset-password (token in the URL fragment) is mailed; it works once, for 30 minutes, and a newer link ends older ones. Limited per address and per IP (429).',
        body: passwordResetRequestSchema,
        response: { 202: passwordResetAcceptedSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const answer = await passwords.requestPasswordReset(deps, request.body, { ip: request.ip });
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset link',
        description:
          'Single use. Signs out every session of the account and lifts its login lock-out; it does not sign in. An unknown, expired or used link answers 410 RESET_LINK_INVALID.',
        body: passwordResetConfirmSchema,
        response: { 204: z.null().describe('Password changed'), 400: apiErrorSchema, 410: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await passwords.confirmPasswordReset(deps, request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: 'Signed-in devices: the live sessions of the caller’s account, most recently seen first',
        response: { 200: signedInDevicesSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return devices.listMySessions(deps, { accountId: session.account.id, sessionId: session.sessionId });
    },
  );

  app.delete(
    '/auth/sessions/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out one of your devices (your own sessions only)',
        params: sessionIdParamsSchema,
        response: {
          204: z.null().describe('Signed out'),
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      const ended = await devices.signOutSession(
        deps,
        { accountId: session.account.id, sessionId: session.sessionId },
        request.params.id,
      );
      if (ended.current) clearSessionCookie(reply, production);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/auth/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out everywhere else: every session of your account but this one',
        response: { 204: z.null().describe('Signed out'), 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await devices.signOutOtherSessions(deps, {
        accountId: session.account.id,
        sessionId: session.sessionId,
      });
      return reply.status(204).send(null);
    },
  );
};
