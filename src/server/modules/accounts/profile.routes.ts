import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountDeletionSchema,
  confirmEmailSchema,
  confirmedEmailSchema,
  deleteAccountSchema,
  emailChangeSchema,
  messageSchema,
  updateProfileSchema,
} from '../../../shared/accounts/profile';
import { accountSchema } from '../../../shared/accounts/schemas';
import { apiErrorSchema } from '../../../shared/errors';
import { clearSessionCookie, requireSession } from '../../plugins/auth';
import { toAccount } from './accounts.service';
import * as profile from './profile.service';

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

/** The signed-in account's own profile, its e-mail change, and deleting it (issue 12). */
export const profileRoutes: FastifyPluginAsyncZod<profile.ProfileDeps> = async (app, deps) => {
  const production = deps.config.NODE_ENV === 'production';

  app.get(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Your profile',
        response: { 200: accountSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return toAccount(await profile.getProfile(deps, session.account.id));
    },
  );

  app.patch(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Edit your name, phone number or (users) username',
        description:
          'Same rules as registration. A business has no username (400); a taken username or business name is 409 with the field named.',
        body: updateProfileSchema,
        response: { 200: accountSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return toAccount(await profile.updateProfile(deps, session.account.id, request.body));
    },
  );

  app.post(
    '/account/email-change',
    {
      schema: {
        tags: ['account'],
        summary: 'Ask to change your e-mail address (confirmed by a link mailed to the new address)',
        description:
          'Needs the account password (a wrong one counts as a failed login). The address changes only when the link is opened; the old address is told.',
        body: emailChangeSchema,
        response: { 202: messageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      const answer = await profile.requestEmailChange(
        deps,
        { id: session.account.id, ip: request.ip },
        request.body,
      );
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/account/email-change/confirm',
    {
      schema: {
        tags: ['account'],
        summary: 'Confirm a new e-mail address with the mailed link’s token (no session needed)',
        body: confirmEmailSchema,
        response: { 200: confirmedEmailSchema, 400: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => profile.confirmEmailChange(deps, request.body.token),
  );

  app.get(
    '/account/deletion',
    {
      schema: {
        tags: ['account'],
        summary: 'What stands in the way of deleting your account, and the cards you would give up',
        response: { 200: accountDeletionSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return profile.getDeletionStatus(deps, session.account.id);
    },
  );

  app.delete(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete your account (password required); signs out everywhere',
        description:
          'Refused (409) while something must be settled first (ACCOUNT_DELETION_BLOCKED, `details.blockers`), and for a user still holding cards with a balance (ACCOUNT_HAS_CARDS) unless `giveUpCards` is true. Personal data is anonymised; ledger entries and card activity stay.',
        body: deleteAccountSchema,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      await profile.deleteAccount(deps, { id: session.account.id, ip: request.ip }, request.body);
      clearSessionCookie(reply, production);
      return reply.status(204).send(null);
    },
  );
};
