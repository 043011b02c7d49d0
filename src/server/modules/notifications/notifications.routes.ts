import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OutgoingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import {
  mailboxSchema,
  markReadSchema,
  notificationPageSchema,
  notificationQuerySchema,
  unreadCountSchema,
} from '../../../shared/notifications/schemas';
import type { CoreDeps } from '../../lib/deps';
import { requireSession } from '../../plugins/auth';
import { LiveNotifications, serveLiveNotificationsOn, STREAM_RETRY_MS } from './live';
import * as notifications from './notifications.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

/** The signed-in account's notifications (either role): the list, mark as read, and the live unread count. */
export const notificationRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  const live = new LiveNotifications({ db: deps.db, log: app.log });
  serveLiveNotificationsOn(app.server, live);
  // Open streams never finish by themselves: end them before the server waits for its requests to end,
  // so app.close() does not hang; then the LISTEN connection goes back (destroyed) before the pool ends.
  app.addHook('preClose', async () => live.close());
  app.addHook('onClose', async () => live.close());

  app.get(
    '/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Your notifications, newest first, with how many are unread',
        querystring: notificationQuerySchema,
        response: { 200: notificationPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return notifications.listMyNotifications(deps, session.account.id, request.query);
    },
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'Mark some (`ids`) or all (`all: true`) of your notifications read; answers the unread count',
        description:
          'Ids that are not yours are passed over without a word. A notification read before keeps its first read time.',
        body: markReadSchema,
        response: { 200: unreadCountSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request);
      return notifications.markMyNotificationsRead(deps, session.account.id, request.body);
    },
  );

  app.get(
    '/notifications/stream',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Live unread count (Server-Sent Events)',
        description: `A text/event-stream: \`retry: ${STREAM_RETRY_MS}\`, then \`event: unread\` with \`data: {"unread":N}\` at once and after every change to your notifications (from any app instance), and a \`: keep-alive\` comment every 25 s. A stream ends after 15 minutes (or when the session expires) and the browser reconnects. At most 10 streams per account per instance: a new one closes the oldest.`,
        response: {
          200: {
            description: 'The event stream (it stays open)',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          401: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request);
      // From here the answer is written by hand: no serializer, and no onSend hooks (compression would
      // buffer the stream). Security headers set so far (helmet) stay on the response.
      reply.hijack();
      const res = reply.raw;
      const set = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
      res.writeHead(200, {
        ...(Object.fromEntries(set) as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        // The connection ends with the stream (so closing the app never waits for a kept-alive socket).
        connection: 'close',
        'x-request-id': request.id,
      });
      if (request.method === 'HEAD') {
        res.end();
        return;
      }
      res.socket?.setNoDelay(true);
      await live.open(session.account.id, res, session.expiresAt);
    },
  );
};

/** Developer tools on the embedded default (no SMTP_URL, not production); 404 everywhere else. */
export const devMailboxRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/mailbox',
    {
      schema: {
        tags: ['dev'],
        summary:
          'The local mailbox: the newest 100 mails, as sent (only without SMTP_URL, outside production)',
        security: [],
        querystring: z.object({
          // An address, checked (a NUL would otherwise reach PostgreSQL, which refuses it in text).
          to: z
            .email({ error: 'That is not an e-mail address.' })
            .max(254)
            .optional()
            .describe('Only mail to this address'),
        }),
        response: { 200: mailboxSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return notifications.listMailbox(deps, request.query.to);
    },
  );
};
