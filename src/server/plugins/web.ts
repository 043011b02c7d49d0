import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_SUPPORT_EMAIL,
  PUBLIC_CONFIG_ELEMENT_ID,
  publicConfigScript,
  type PublicConfig,
} from '../../shared/public-config';
import { escapeHtml } from '../lib/html';
import { etagOf, prepareBody, sendPrepared, type PreparedBody } from '../lib/prepared-body';

/**
 * The pages the build pre-rendered, by address (`/`, ADR 004, and the public pages, ADR 023), as
 * scripts/prerender.mjs lists them.
 */
function readPrerenderedList(webRoot: string): Record<string, string> {
  const file = path.join(webRoot, '.vite', 'prerendered.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

const CONFIG_ELEMENT = new RegExp(
  `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">[^<]*</script>`,
);

/**
 * A pre-rendered page with this server's public config. The build drew the pages with the defaults (the
 * support address, and the config the app starts from), so that they read whole without JavaScript; a
 * server configured otherwise writes its own over them.
 */
function withConfig(html: string, config: PublicConfig): string {
  const address = escapeHtml(config.supportEmail);
  return html
    .replaceAll(DEFAULT_SUPPORT_EMAIL, () => address)
    .replace(CONFIG_ELEMENT, () => publicConfigScript(config));
}

/** An inline script that runs: no `src`, and not data (`type="application/json"`, the public config). */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?![^>]*\stype="application\/json")[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The CSP sources (`'sha256-…'`) that let a page's inline scripts run, and nothing else inline: in the built
 * shell, the loader that asks for the app's code once the loading screen has painted
 * (scripts/first-paint-html.ts, ADR 029), which the pre-rendered pages carry too; in the signed-in catalogue's
 * page, the script that puts its screen in place for a user (src/web/app/user-home-prerender.tsx).
 */
export function inlineScriptSources(html: string): string[] {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [...new Set(hashes)];
}

/**
 * A built page, read once at start: a pre-rendered one (with the brotli and gzip copies the build wrote) or
 * the app's shell, index.html. They are first visits, so they are answered from memory, compressed ahead,
 * headers and body in one write: streamed from disk through the compression plugin, the shell's body came
 * tens of milliseconds after its headers, and its loading screen painted that much later (issue 14). Each is
 * revalidated on every visit (it names the hashed assets of the current build); a 304 costs nothing. A page
 * without the build's copies, or one this server's config changes, is compressed here, once.
 */
function readPrepared(webRoot: string, name: string, config: PublicConfig): PreparedBody | undefined {
  const file = path.join(webRoot, name);
  if (!existsSync(file)) return undefined;
  const body = readFileSync(file);
  const html = body.toString('utf8');
  const ours = withConfig(html, config);
  if (ours !== html || !existsSync(`${file}.br`)) return prepareBody(ours);
  const copy = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
  return { body, br: copy('.br'), gzip: copy('.gz'), etag: etagOf(body) };
}

/** The built web app, read once at start: what registerWeb serves and what the CSP must allow. */
export interface BuiltWeb {
  root: string;
  /** index.html, answering every page the build did not pre-render (history fallback). */
  shell: PreparedBody;
  /** The pre-rendered pages by address (`/`, the public pages and the signed-in catalogue's first screen). */
  pages: Map<string, PreparedBody>;
  /** The CSP sources for the inline scripts of the shell and the pages, hashed from them as they are sent. */
  scriptSources: string[];
}

/**
 * Reads the built web app in `webRoot` (dist/web), with `config`, the server's public settings, written into
 * the pre-rendered pages; undefined without a build (API tests).
 */
export function readBuiltWeb(webRoot: string | undefined, config: PublicConfig): BuiltWeb | undefined {
  if (webRoot === undefined) return undefined;
  const shell = readPrepared(webRoot, 'index.html', config);
  if (!shell) return undefined;
  const pages = new Map<string, PreparedBody>();
  for (const [pathname, name] of Object.entries(readPrerenderedList(webRoot))) {
    const page = readPrepared(webRoot, name, config);
    if (page) pages.set(pathname, page);
  }
  const scriptSources = inlineScriptSources(
    [shell, ...pages.values()].map((page) => page.body.toString('utf8')).join('\n'),
  );
  return { root: webRoot, shell, pages, scriptSources };
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, `/` and the public pages from
 * their pre-rendered HTML, and any other non-API GET answered with index.html so React Router can handle the
 * path (history fallback). Unknown /api paths answer a JSON 404.
 */
export async function registerWeb(app: FastifyInstance, web: BuiltWeb | undefined): Promise<void> {
  if (web) {
    await app.register(fastifyStatic, {
      root: web.root,
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
    if (!isApi && web && (request.method === 'GET' || request.method === 'HEAD')) {
      const pathname = request.url.split('?')[0] ?? '';
      const page = web.pages.get(pathname);
      if (page) return sendPrepared(request, reply, page, 'text/html; charset=utf-8');
      const wantsFile = /\.[a-z0-9]{2,5}$/i.test(pathname);
      if (!wantsFile) return sendPrepared(request, reply, web.shell, 'text/html; charset=utf-8');
    }
    return reply.status(404).send({
      code: 'NOT_FOUND',
      message: `No such ${isApi ? 'API route' : 'page'}: ${request.method} ${request.url.split('?')[0]}`,
    });
  });
}
