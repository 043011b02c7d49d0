import type { RedemptionPage, SalePage } from '../../../shared/cards/sales';
import { api } from '../../lib/api';

/** The business's sales and redemptions tables (issue 13), paged with the server's keyset cursor. */

const PAGE_SIZE = 25;

/** The filters of the sales table, as they stand in the page's address. */
export interface SalesFilters {
  from?: string;
  to?: string;
  giftCardId?: string;
  status?: string;
  q?: string;
}

export interface DateRange {
  from?: string;
  to?: string;
}

export const salesKeys = {
  all: ['sales'] as const,
  list: (filters: SalesFilters) => ['sales', 'list', filters] as const,
  redemptions: (range: DateRange) => ['sales', 'redemptions', range] as const,
};

/** Only the filters that are set, in a fixed order, so the same filters make the same address. */
export function filterParams(filters: SalesFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['from', 'to', 'giftCardId', 'status', 'q'] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return params;
}

export function listSales(filters: SalesFilters, cursor?: string, signal?: AbortSignal) {
  const params = filterParams(filters);
  params.set('limit', String(PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return api<SalePage>(`/api/v1/sales?${params}`, { signal });
}

export function listRedemptions(range: DateRange, cursor?: string, signal?: AbortSignal) {
  const params = filterParams(range);
  params.set('limit', String(PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return api<RedemptionPage>(`/api/v1/redemptions?${params}`, { signal });
}

/** The CSV downloads: plain links, so the browser streams the file to disk with the session cookie. */
export function salesCsvHref(filters: SalesFilters): string {
  const params = filterParams(filters).toString();
  return `/api/v1/sales.csv${params ? `?${params}` : ''}`;
}

export function redemptionsCsvHref(range: DateRange): string {
  const params = filterParams(range).toString();
  return `/api/v1/redemptions.csv${params ? `?${params}` : ''}`;
}
