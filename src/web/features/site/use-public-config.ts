import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../../shared/public-config';

const publicConfigKey = ['config'] as const;

/** GET /api/v1/config: the currency and the support address, shared by every screen under the 'config' key. */
export function usePublicConfig() {
  return useQuery({ queryKey: publicConfigKey, queryFn: () => api<PublicConfig>('/api/v1/config') });
}

/** Puts `config` in the cache as the API's answer (the build pre-renders the public pages with the defaults). */
export function seedPublicConfig(client: QueryClient, config: PublicConfig): void {
  client.setQueryData<PublicConfig>(publicConfigKey, config);
}

/**
 * The config a pre-rendered public page carries (the server wrote its own into it), put in the cache before
 * the app draws over the page: the page keeps its support address instead of showing it "loading" again.
 */
export function takePublicConfigFromPage(client: QueryClient, doc: Document): void {
  const text = doc.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return;
  try {
    const value = JSON.parse(text) as Partial<PublicConfig> | null;
    if (typeof value?.currency === 'string' && typeof value.supportEmail === 'string') {
      seedPublicConfig(client, { currency: value.currency, supportEmail: value.supportEmail });
    }
  } catch {
    // Not JSON: the screens ask the API as usual.
  }
}
