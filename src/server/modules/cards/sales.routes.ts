import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  redemptionPageSchema,
  redemptionsExportQuerySchema,
  redemptionsQuerySchema,
  salePageSchema,
  salesDailyQuerySchema,
  salesDailySchema,
  salesExportQuerySchema,
  salesQuerySchema,
  salesSummarySchema,
} from '../../../shared/cards/sales';
import { apiErrorSchema } from '../../../shared/errors';
import { sendCsv } from '../../lib/csv';
import { requireSession } from '../../plugins/auth';
import type { CardsDeps } from './cards.service';
import * as sales from './sales.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

export const csvResponse = (description: string) => ({
  description,
  content: { 'text/csv': { schema: z.string() } },
});

const CSV_NOTE =
  'A CSV file (a header row, then a line per row, newest first), streamed from the database: amounts in naira with two decimals ("12500.00"), times as ISO 8601, cells that a spreadsheet would run as a formula prefixed with \'. Errors are JSON `{ code, message }`.';

/** The business's sales table, its home page's figures and chart, its redemptions, and their CSV exports. */
export const salesRoutes: FastifyPluginAsyncZod<CardsDeps> = async (app, deps) => {
  app.get(
    '/sales',
    {
      schema: {
        tags: ['sales'],
        summary: 'Every card you sold, newest first, with filters (business only)',
        description:
          'from/to are days in the platform time zone (both included); q is the last four characters of a code or an order reference; the buyer is shown by name or @username, never by e-mail.',
        querystring: salesQuerySchema,
        response: { 200: salePageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return sales.listMySales(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/sales.csv',
    {
      schema: {
        tags: ['sales'],
        summary: 'Your sales as a CSV download (same filters as GET /sales, no paging)',
        description: CSV_NOTE,
        querystring: salesExportQuerySchema,
        response: { 200: csvResponse('sales-<from>-<to>.csv'), ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const body = sales.exportMySales(deps, session.account.id, request.query);
      return sendCsv(reply, sales.exportFilename('sales', request.query), body);
    },
  );

  app.get(
    '/sales/summary',
    {
      schema: {
        tags: ['sales'],
        summary: "Your figures: outstanding card balance, today's and this month's sales and redemptions",
        description:
          '"Today" and "this month" are in the platform time zone (timeZone). Each figure is a sum over the card activities and ledger rows.',
        response: { 200: salesSummarySchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return sales.salesSummary(deps, session.account.id);
    },
  );

  app.get(
    '/sales/daily',
    {
      schema: {
        tags: ['sales'],
        summary: 'Sold and redeemed per day for the last 30 or 90 days (every day, oldest first)',
        querystring: salesDailyQuerySchema,
        response: { 200: salesDailySchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return sales.salesDaily(deps, session.account.id, request.query.days);
    },
  );

  app.get(
    '/redemptions',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Every redemption at your till, newest first, with its reversal if any (business only)',
        querystring: redemptionsQuerySchema,
        response: { 200: redemptionPageSchema, ...errors },
      },
    },
    async (request) => {
      const session = await requireSession(request, 'business');
      return sales.listMyRedemptions(deps, session.account.id, request.query);
    },
  );

  app.get(
    '/redemptions.csv',
    {
      schema: {
        tags: ['redemptions'],
        summary: 'Your redemptions as a CSV download (from/to)',
        description: CSV_NOTE,
        querystring: redemptionsExportQuerySchema,
        response: { 200: csvResponse('redemptions-<from>-<to>.csv'), ...errors },
      },
    },
    async (request, reply) => {
      const session = await requireSession(request, 'business');
      const body = sales.exportMyRedemptions(deps, session.account.id, request.query);
      return sendCsv(reply, sales.exportFilename('redemptions', request.query), body);
    },
  );
};
