import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet would set with these options, worked out once. Without CSP nonces they are the same on
 * every response, and helmet rebuilding them per request (parsing every CSP directive again) was a tenth of
 * the catalogue's time under load (issue 14's profile).
 */
export function securityHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let done = false;
  helmet(options)({} as never, res as never, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish at once');
  return [...headers];
}

/** Where the JSON API answers (and the notification stream): a client reads them, no page is drawn from them. */
export const API_PREFIX = '/api/v1/';

/**
 * What an API answer carries instead of the page's headers. No document is drawn from JSON, so the page's
 * policies (its CSP's script and style sources, DNS prefetching, cross-origin isolation, the old browsers'
 * download and XSS switches) say nothing there; what is left is what OWASP's REST guidance asks of an API:
 * nothing may run in it, load from it or frame it, its type is not sniffed, and it sends no referrer. They
 * were most of every answer's headers: about 600 bytes fewer, and the catalogue's first page served 15 %
 * more requests a second under issue 14's load.
 */
export const API_SECURITY_HEADERS: readonly [string, string][] = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * Sets the security headers on every response, first thing; a route may still replace one (the API docs and
 * the uploaded files set their own CSP), and the notification stream, which writes its answer itself, copies
 * them from `reply.getHeaders()`. The API's answers get API_SECURITY_HEADERS, everything else (pages, the API
 * docs, the checkout page, files) helmet's.
 *
 * They go on the reply, not on the raw response as helmet sets them: Fastify then hands all of an answer's
 * headers to Node's `writeHead` in one object, which Node writes as they are. A header set on the raw
 * response makes Node take its slow path instead, copying every one of Fastify's headers into its own map
 * first (issue 14's profile of the catalogue).
 */
async function securityHeadersPlugin(app: FastifyInstance, options: HelmetOptions): Promise<void> {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    const set = request.url.startsWith(API_PREFIX) ? API_SECURITY_HEADERS : headers;
    for (const [name, value] of set) reply.header(name, value);
    done();
  });
}

export const registerSecurityHeaders = fp(securityHeadersPlugin, { name: 'giftmart-security-headers' });
