import { useEffect, useState } from 'react';
import { DEFAULT_SUPPORT_EMAIL } from '../../../shared/public-config';

/**
 * The support address from GET /api/v1/config. A plain fetch on purpose: the landing page stays free of
 * the data-fetching library and the API client's dependencies to keep its JavaScript small.
 */
export function useSupportEmail(): string {
  const [email, setEmail] = useState(DEFAULT_SUPPORT_EMAIL);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/v1/config', { signal: controller.signal, credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<unknown>) : null))
      .then((body) => {
        const value =
          body && typeof body === 'object' ? (body as { supportEmail?: unknown }).supportEmail : undefined;
        if (typeof value === 'string' && value.includes('@')) setEmail(value);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return email;
}
