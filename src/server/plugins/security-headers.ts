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

/**
 * Sets the security headers on every response, first thing, on the raw response (as helmet itself does), so
 * a route that writes to the socket itself (the notification stream) has them too; a route may still
 * replace one (the API docs set their own CSP).
 */
async function securityHeadersPlugin(app: FastifyInstance, options: HelmetOptions): Promise<void> {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}

export const registerSecurityHeaders = fp(securityHeadersPlugin, { name: 'giftmart-security-headers' });
