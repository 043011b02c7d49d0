import { QueryClient } from '@tanstack/react-query';
import { takePublicConfigFromPage } from '../features/site/use-public-config';
import { ApiError, onUnauthorized } from '../lib/api';
import { CACHE_TIME_MS, QUERY_RETRIES, RETRY_BASE_MS, RETRY_MAX_MS } from '../lib/constants';

/** Seed §7: 3 retries, exponential back-off from 1 s capped at 30 s, 5-minute cache; a 4xx is not retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          failureCount < QUERY_RETRIES &&
          !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        retryDelay: (attempt) => Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_MS),
        gcTime: CACHE_TIME_MS,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** One cache for the signed-in screens; a lost session empties it so no one sees the last account's data. */
export const queryClient = createQueryClient();
onUnauthorized(() => queryClient.clear());
// A pre-rendered public page carries the server's public config: the app starts from it.
if (typeof document !== 'undefined') takePublicConfigFromPage(queryClient, document);
