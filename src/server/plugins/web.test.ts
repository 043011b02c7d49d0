import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { connectDatabase, type Database } from '../db/client';
import { loadConfig } from '../env';
import { API_SECURITY_HEADERS } from './security-headers';
import { inlineScriptSources, readBuiltWeb } from './web';

const LANDING = `<!doctype html><html><body><div id="root"><h1>Buy, keep, spend and send gift cards</h1>${'<p>Giftmart</p>'.repeat(200)}</div></body></html>`;

const CONFIG = `<script type="application/json" id="public-config">{"currency":"NGN","supportEmail":"support@giftmart.ng"}</script>`;

const FAQS = `<!doctype html><html><body><div id="root" data-prerendered="/faqs"><h1>Frequently asked questions</h1><p>Write to <a href="mailto:support@giftmart.ng">support@giftmart.ng</a>.</p>${'<p>Giftmart</p>'.repeat(100)}</div>${CONFIG}</body></html>`;

/** The app's shell: its loader (inline, ADR 029) and loading screen, big enough to be worth compressing. */
const LOADER = "document.head.append('the app')";
const SHELL = `<!doctype html><script>${LOADER}</script><div id="root"><div role="status">${'Loading… '.repeat(200)}</div></div>`;

/** The signed-in catalogue's page: the shell with the screen in a template and its own inline script. */
const USER_HOME_SCRIPT = "document.getElementById('root').replaceChildren('the screen')";
const USER_HOME = SHELL.replace(
  '<div id="root">',
  `<template id="user-home"><h1>All Gift Cards</h1></template><div id="root">`,
).concat(`<script>${USER_HOME_SCRIPT}</script>`);

let webRoot: string;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'giftmart-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), SHELL);
  // What scripts/prerender.mjs leaves: the landing page's HTML with its brotli and gzip copies.
  writeFileSync(path.join(webRoot, 'landing.html'), LANDING);
  writeFileSync(path.join(webRoot, 'landing.html.br'), brotliCompressSync(LANDING));
  writeFileSync(path.join(webRoot, 'landing.html.gz'), gzipSync(LANDING));
  writeFileSync(path.join(webRoot, 'faqs.html'), FAQS);
  writeFileSync(path.join(webRoot, 'faqs.html.gz'), gzipSync(FAQS));
  writeFileSync(path.join(webRoot, 'user-home.html'), USER_HOME);
  // Its list of what it pre-rendered; terms.html is listed but missing (a build that stopped half-way).
  mkdirSync(path.join(webRoot, '.vite'));
  writeFileSync(
    path.join(webRoot, '.vite', 'prerendered.json'),
    JSON.stringify({
      '/': 'landing.html',
      '/faqs': 'faqs.html',
      '/terms': 'terms.html',
      '/user-dashboard': 'user-home.html',
    }),
  );
  writeFileSync(
    path.join(webRoot, 'assets', 'index-abc123.js'),
    `window.giftmartTest = (${JSON.stringify('x'.repeat(5000))});`,
  );
  writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  database = connectDatabase(inject('databaseUrl'), { max: 2 });
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'data/test-vitest-app', LOG_LEVEL: 'silent' });
  app = await buildApp({ config, db: database.db, webRoot, logger: false });
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('caches hashed assets for a year and compresses them', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('answers / with the pre-rendered landing page: compressed ahead, revalidated with an ETag', async () => {
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(LANDING);
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");

    const gzip = await app.inject({ url: '/?utm=x', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(LANDING);

    const plain = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LANDING);

    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
  });

  it('answers a public page the build pre-rendered with its HTML, and one it did not with index.html', async () => {
    const gzip = await app.inject({ url: '/faqs?from=footer', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(gzip.headers['cache-control']).toBe('no-cache');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(FAQS);
    const again = await app.inject({ url: '/faqs', headers: { 'if-none-match': String(gzip.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // The signed-in catalogue's first screen: its page, whose script puts it in place for a user.
    const home = await app.inject({ url: '/user-dashboard?q=kitchen' });
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(home.body).toBe(USER_HOME);
    // Listed but not written (no terms.html): the app's index.html draws it.
    const terms = await app.inject({ url: '/terms' });
    expect(terms.statusCode).toBe(200);
    expect(terms.body).toBe(SHELL);
  });

  it("writes a server's own support address and currency into the pre-rendered pages, compressed again", async () => {
    const own = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: 'data/test-vitest-app',
        LOG_LEVEL: 'silent',
        SUPPORT_EMAIL: "o'neil@help.giftmart.test",
        CURRENCY: 'USD',
      }),
      db: database.db,
      webRoot,
      logger: false,
    });
    try {
      const plain = await own.inject({ url: '/faqs' });
      const brotli = await own.inject({ url: '/faqs', headers: { 'accept-encoding': 'br' } });
      const gzip = await own.inject({ url: '/faqs', headers: { 'accept-encoding': 'gzip' } });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      const expected = FAQS.replace(
        CONFIG,
        `<script type="application/json" id="public-config">{"currency":"USD","supportEmail":"o'neil@help.giftmart.test"}</script>`,
      ).replaceAll('support@giftmart.ng', 'o&#39;neil@help.giftmart.test');
      for (const body of [
        plain.body,
        brotliDecompressSync(brotli.rawPayload).toString(),
        gunzipSync(gzip.rawPayload).toString(),
      ]) {
        expect(body).toBe(expected);
      }
      expect(plain.headers.etag).not.toBe((await app.inject({ url: '/faqs' })).headers.etag);
      // The landing page has no address in it here: served as the build wrote it.
      const landing = await own.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      expect(brotliDecompressSync(landing.rawPayload).toString()).toBe(LANDING);
    } finally {
      await own.close();
    }
  });

  it('answers other web routes with index.html, never cached (history fallback)', async () => {
    for (const url of ['/dashboard/wallet', '/user-dashboard/card/123?x=1', '/login']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(SHELL);
    }
  });

  it('sends the shell from memory, compressed ahead and revalidated with an ETag, like the pre-rendered pages', async () => {
    const br = await app.inject({
      url: '/user-dashboard/mycards',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SHELL);
    const gzip = await app.inject({ url: '/login', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SHELL);
    expect(gzip.headers.etag).toBe(br.headers.etag);
    const again = await app.inject({
      url: '/dashboard',
      headers: { 'if-none-match': String(br.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends security headers with a CSP the app satisfies (scripts only from itself)', async () => {
    const res = await app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    // The shell's loader and the signed-in catalogue's own script, and only they, may run inline: by their hashes.
    const loaderHash = createHash('sha256').update(LOADER).digest('base64');
    const pageHash = createHash('sha256').update(USER_HOME_SCRIPT).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${loaderHash}' 'sha256-${pageHash}';`);
    // The till's QR scanner runs its decoder in a worker made from a blob URL; nothing else may.
    expect(csp).toContain("worker-src 'self' blob:");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("answers the API with the headers an API needs, and the pages with the page's", async () => {
    const pageOnly = [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    // An answer and an error of the JSON API: nothing may run in, load from or frame either.
    for (const url of ['/api/v1/config', '/api/v1/no-such-route']) {
      const res = await app.inject({ url });
      for (const [name, value] of API_SECURITY_HEADERS)
        expect(res.headers[name], `${url} ${name}`).toBe(value);
      for (const name of pageOnly) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
    expect(API_SECURITY_HEADERS).toContainEqual([
      'content-security-policy',
      "default-src 'none'; frame-ancestors 'none'",
    ]);
    // A page, and an address that only starts like the API's, keep the page's.
    for (const url of ['/faqs', '/api/v1x', '/api/docs']) {
      const res = await app.inject({ url });
      expect(String(res.headers['content-security-policy']), url).not.toContain("default-src 'none'");
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
  });

  it("allows by hash the shell's inline scripts that run, not its data or its scripts from files", () => {
    const html =
      '<script>start()</script><script type="module" src="/assets/a.js"></script>' +
      '<script type="application/json" id="public-config">{"currency":"NGN"}</script><script>start()</script>';
    const hash = createHash('sha256').update('start()').digest('base64');
    expect(inlineScriptSources(html)).toEqual([`'sha256-${hash}'`]);
    expect(inlineScriptSources('<div id="root"></div>')).toEqual([]);
    // No build, nothing to serve and nothing to allow.
    const config = { currency: 'NGN', supportEmail: 'support@giftmart.ng' } as const;
    expect(readBuiltWeb(undefined, config)).toBeUndefined();
    expect(readBuiltWeb(path.join(webRoot, 'missing'), config)).toBeUndefined();
  });

  it('answers a missing file with 404 and an unknown API path with JSON 404, not the page', async () => {
    const file = await app.inject({ url: '/missing.png' });
    expect(file.statusCode).toBe(404);
    const apiRes = await app.inject({ url: '/api/v1/unknown' });
    expect(apiRes.statusCode).toBe(404);
    expect(apiRes.json()).toMatchObject({ code: 'NOT_FOUND' });
    const post = await app.inject({ method: 'POST', url: '/api/nothing', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the interactive API docs', async () => {
    const page = await app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-initializer.js');
  });
});
