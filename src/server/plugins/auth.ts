import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '../../shared/accounts/schemas';
import { AppError } from '../lib/app-error';
import type { Config } from '../env';

export const SESSION_COOKIE = 'giftmart_session';

/**
 * The signed-in account as this plugin needs it. The accounts room, which resolves sessions, widens it to
 * the whole account row by declaration merging, so routes see every field without this plugin importing it.
 */
export interface SessionAccount {
  id: string;
  role: Role;
}

export interface ResolvedSession {
  sessionId: string;
  account: SessionAccount;
  expiresAt: Date;
  persistent: boolean;
}

export interface AuthPluginOptions {
  config: Config;
  /** Turns a cookie or Bearer token into its live session (the accounts room's `resolveToken`). */
  resolveToken(token: string): Promise<ResolvedSession | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolves (once per request) the caller's session from the cookie or a Bearer token. */
    session(): Promise<ResolvedSession | null>;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Who is asking. A Bearer token wins over the cookie; a cookie-authenticated change must come from our
 * own origin (CSRF): browsers send Origin on every POST/PATCH/DELETE, so checking it needs no token.
 */
async function authPlugin(app: FastifyInstance, deps: AuthPluginOptions): Promise<void> {
  const trusted = new Set(deps.config.TRUSTED_ORIGINS.map((o) => new URL(o).origin));

  app.decorateRequest('session', function (this: FastifyRequest) {
    const cache = this as FastifyRequest & { sessionPromise?: Promise<ResolvedSession | null> };
    cache.sessionPromise ??= (async () => {
      const token = bearerToken(this) ?? this.cookies[SESSION_COOKIE];
      return token ? deps.resolveToken(token) : null;
    })();
    return cache.sessionPromise;
  });

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api')) return;
    if (bearerToken(request) || !request.cookies[SESSION_COOKIE]) return;
    if (!isSameOrigin(request, trusted)) {
      throw new AppError(
        'CSRF_REJECTED',
        'This request did not come from Giftmart itself, so it was refused. Reload the page and try again.',
      );
    }
  });
}

function isSameOrigin(request: FastifyRequest, trusted: Set<string>): boolean {
  const source = request.headers.origin ?? request.headers.referer;
  if (!source || source === 'null') return false;
  let origin: URL;
  try {
    origin = new URL(source);
  } catch {
    return false;
  }
  return origin.origin === ownOrigin(request) || trusted.has(origin.origin);
}

/**
 * The request's own origin: scheme, host and port, as Origin writes them (`http://localhost:80` is
 * `http://localhost`). The scheme counts too: `https://<host>` sent to the plain-http server is another
 * origin (issue 12). `request.protocol` follows X-Forwarded-Proto only when TRUST_PROXY trusts the hop.
 */
function ownOrigin(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}

export const registerAuth = fp(authPlugin, { name: 'giftmart-auth', dependencies: ['@fastify/cookie'] });

export async function requireSession(request: FastifyRequest, role?: Role): Promise<ResolvedSession> {
  const session = await request.session();
  if (!session) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  if (role && session.account.role !== role) {
    throw new AppError(
      'FORBIDDEN',
      role === 'business' ? 'Only a business can do this.' : 'Only a user can do this.',
    );
  }
  return session;
}

/** An id in a path never grants access by itself: the signed-in business must be that id. */
export async function requireBusinessSelf(
  request: FastifyRequest,
  businessId: string,
): Promise<ResolvedSession> {
  const session = await requireSession(request, 'business');
  if (session.account.id !== businessId)
    throw new AppError('FORBIDDEN', 'You can only act on your own business.');
  return session;
}

export function setSessionCookie(
  reply: FastifyReply,
  production: boolean,
  session: { token: string; expiresAt: Date; persistent: boolean },
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: production,
    ...(session.persistent ? { expires: session.expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, production: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: production });
}
