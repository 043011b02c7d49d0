import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A response body kept ready to send (issue 14): its bytes, compressed copies made once, and an ETag, so a
 * page many people ask for costs no serialization, no compression and, when the browser has it, no body.
 */
export interface PreparedBody {
  body: Buffer;
  br?: Buffer | undefined;
  gzip?: Buffer | undefined;
  etag: string;
}

/** Below this a compressed copy saves less than it costs (as @fastify/compress's threshold). */
const COMPRESS_FROM_BYTES = 1024;

export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Prepares a body, compressing it here (brotli at a middle quality: a page is made once, sent many times). */
export function prepareBody(content: string | Buffer): PreparedBody {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  if (body.length < COMPRESS_FROM_BYTES) return { body, etag: etagOf(body) };
  return {
    body,
    etag: etagOf(body),
    gzip: gzipSync(body, { level: 6 }),
    br: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  };
}

/** The byte size of a prepared body with its copies (for caches with a budget). */
export function preparedSize(prepared: PreparedBody): number {
  return prepared.body.length + (prepared.br?.length ?? 0) + (prepared.gzip?.length ?? 0);
}

/** Whether an If-None-Match header names this ETag (a list, weak forms and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a prepared body: revalidated on every use (`no-cache`), 304 when the client already has it,
 * otherwise the smallest copy the client accepts. The route must not also be compressed by the plugin.
 */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  prepared: PreparedBody,
  contentType: string,
): FastifyReply {
  reply
    .header('cache-control', 'no-cache')
    .header('etag', prepared.etag)
    .header('vary', 'accept-encoding')
    .type(contentType);
  if (etagMatches(request.headers['if-none-match'], prepared.etag)) return reply.status(304).send();
  const accepted = request.headers['accept-encoding'];
  if (accepted) {
    if (prepared.br && /\bbr\b/.test(accepted))
      return reply.header('content-encoding', 'br').send(prepared.br);
    if (prepared.gzip && /\bgzip\b/.test(accepted)) {
      return reply.header('content-encoding', 'gzip').send(prepared.gzip);
    }
  }
  return reply.send(prepared.body);
}
