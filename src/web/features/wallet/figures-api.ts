import type { SalesDaily, SalesSummary } from '../../../shared/cards/sales';
import type { StatementPage } from '../../../shared/wallet/statement';
import { api } from '../../lib/api';

/** The business's figures for Home (summary and chart) and its wallet statement (issue 13). */

const STATEMENT_PAGE_SIZE = 25;

export const figuresKeys = {
  summary: ['sales', 'summary'] as const,
  daily: (days: 30 | 90) => ['sales', 'daily', days] as const,
  statement: (range: { from?: string; to?: string }) => ['wallet', 'statement', range] as const,
};

export function getSalesSummary(signal?: AbortSignal) {
  return api<SalesSummary>('/api/v1/sales/summary', { signal });
}

export function getSalesDaily(days: 30 | 90, signal?: AbortSignal) {
  return api<SalesDaily>(`/api/v1/sales/daily?days=${days}`, { signal });
}

function rangeParams(range: { from?: string; to?: string }): URLSearchParams {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  return params;
}

export function getStatement(range: { from?: string; to?: string }, cursor?: string, signal?: AbortSignal) {
  const params = rangeParams(range);
  params.set('limit', String(STATEMENT_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return api<StatementPage>(`/api/v1/wallet/statement?${params}`, { signal });
}

/** A plain download link: the browser saves the file with the session cookie. */
export function statementCsvHref(range: { from?: string; to?: string }): string {
  const params = rangeParams(range).toString();
  return `/api/v1/wallet/statement.csv${params ? `?${params}` : ''}`;
}
