import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and any other
 * non-API GET answered with index.html so React Router can handle the path (history fallback).
 * Unknown /api paths answer a JSON 404.
 */
export async function registerWeb(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const hasWeb = webRoot !== undefined && existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      const wantsFile = /\.[a-z0-9]{2,5}$/i.test(request.url.split('?')[0] ?? '');
      if (!wantsFile) {
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      }
    }
    return reply.status(404).send({
      code: 'NOT_FOUND',
      message: `No such ${isApi ? 'API route' : 'page'}: ${request.method} ${request.url.split('?')[0]}`,
    });
  });
}
