import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../shared/errors';
import {
  statementExportQuerySchema,
  statementPageSchema,
  statementQuerySchema,
} from '../../../shared/wallet/statement';
import { sendCsv } from '../../lib/csv';
import type { CoreDeps } from '../../lib/deps';
import { requireSession } from '../../plugins/auth';
import * as statement from './statement.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

/** The wallet statement: every ledger movement of the business's wallet with the running balance. */
export const statementRoutes: FastifyPluginAsyncZod<CoreDeps> = async (app, deps) => {
  app.get(
    '/wallet/statement',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Every movement of your wallet, newest first, with the balance after each (business only)',
        description:
          'From the ledger, in the order it wrote them (newest first): sales (net of the platform fee), refunds, withdrawals and failed withdrawals coming back. The newest line’s balanceAfter equals GET /wallet’s balance, and each line’s is the one above it less that line’s amount, in any page or day range. from/to are days in the platform time zone; nextCursor continues below the last line.',
        querystring: statementQuerySchema,
        response: { 200: statementPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return statement.getStatement(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/wallet/statement.csv',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Your wallet statement as a CSV download (from/to)',
        description:
          'A CSV file (a header row, then a line per movement, newest first), read from the database through a server-side cursor: amounts in naira with two decimals ("12500.00", negative for money out), times as ISO 8601, cells a spreadsheet would run as a formula prefixed with \'. Errors are JSON `{ code, message }`.',
        querystring: statementExportQuerySchema,
        response: {
          200: {
            description: 'statement-<from>-<to>.csv',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const body = statement.exportStatement(deps, session.account.id, request.query);
      return sendCsv(
        reply,
        `statement-${request.query.from ?? 'start'}-${request.query.to ?? 'today'}.csv`,
        body,
      );
    },
  );
};
