import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { GiftCard, GiftCardPage } from '../../../shared/catalogue/schemas';
import { namedDatabase } from '../../../../tests/fixtures/listen';
import { registerAndLogin, twoTestApps, type TestApp } from '../../../../tests/fixtures/test-app';
import { CATALOGUE_CHANNEL, CatalogueCache } from './catalogue-cache';

/**
 * Issue 14: the catalogue's pages are kept serialized and compressed in each instance and dropped on every
 * change, announced through PostgreSQL (LISTEN/NOTIFY), whichever instance or statement made it.
 */
let a: TestApp;
let b: TestApp;
twoTestApps((apps) => ([a, b] = apps));

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

async function createCard(owner: Account, amount = 500_000): Promise<GiftCard> {
  const res = await owner.request({
    method: 'POST',
    url: '/api/v1/gift-cards',
    payload: { amount, colour: '#1a2b3c' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as GiftCard;
}

const catalogueOf = (owner: Account) => `/api/v1/gift-cards?businessId=${owner.account.id}`;

async function ids(app: TestApp, url: string): Promise<string[]> {
  const res = await app.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as GiftCardPage).items.map((card) => card.id);
}

describe('GET /api/v1/gift-cards from the cache', () => {
  it('answers the same bytes and ETag again, 304 to a browser that has them, and compressed copies of them', async () => {
    const owner = await registerAndLogin(a.app, 'business');
    const cards = [await createCard(owner, 100_000), await createCard(owner, 200_000)];
    const url = catalogueOf(owner);
    const first = await a.app.inject({ method: 'GET', url });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect((first.json() as GiftCardPage).items.map((c) => c.id)).toEqual([cards[1]!.id, cards[0]!.id]);

    const again = await a.app.inject({ method: 'GET', url });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await a.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(notModified.statusCode, ifNoneMatch).toBe(304);
      expect(notModified.body).toBe('');
      expect(notModified.headers.etag).toBe(etag);
    }
    const stale = await a.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"not-it"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);

    // A page under 1 KB is sent as it is; make one large enough to be compressed.
    for (let i = 0; i < 6; i++) await createCard(owner, 300_000 + i);
    const plain = await a.app.inject({ method: 'GET', url });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await a.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await a.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });

  it('shows a card made, stopped and resumed through this instance on the very next read', async () => {
    const owner = await registerAndLogin(a.app, 'business');
    const url = catalogueOf(owner);
    expect(await ids(a, url)).toEqual([]);
    const card = await createCard(owner);
    expect(await ids(a, url)).toEqual([card.id]);
    const stop = await owner.request({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${card.id}`,
      payload: { onSale: false },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(await ids(a, url)).toEqual([]);
    await owner.request({ method: 'PATCH', url: `/api/v1/gift-cards/${card.id}`, payload: { onSale: true } });
    expect(await ids(a, url)).toEqual([card.id]);
  });

  it('drops a page another instance or a plain SQL statement changed (announced through PostgreSQL)', async () => {
    const owner = await registerAndLogin(a.app, 'business');
    const url = catalogueOf(owner);
    const card = await createCard(owner);
    // B has the page in memory…
    expect(await ids(b, url)).toEqual([card.id]);
    expect(await ids(b, url)).toEqual([card.id]);
    // …then A stops selling the card: B hears of it.
    await owner.request({
      method: 'PATCH',
      url: `/api/v1/gift-cards/${card.id}`,
      payload: { onSale: false },
    });
    await expect.poll(() => ids(b, url), { timeout: 5000 }).toEqual([]);
    // A statement no instance made (an operator's fix) reaches both.
    await a.database.pool.query('UPDATE gift_cards SET on_sale = true WHERE id = $1', [card.id]);
    await expect.poll(() => ids(a, url), { timeout: 5000 }).toEqual([card.id]);
    await expect.poll(() => ids(b, url), { timeout: 5000 }).toEqual([card.id]);
    // A business's new name shows on its cards and in searches.
    const newName = `Renamed ${randomUUID().slice(0, 8)}`;
    const byName = `/api/v1/gift-cards?q=${encodeURIComponent(newName)}`;
    expect(await ids(b, byName)).toEqual([]);
    await a.database.pool.query('UPDATE accounts SET name = $2 WHERE id = $1', [owner.account.id, newName]);
    await expect.poll(() => ids(b, byName), { timeout: 5000 }).toEqual([card.id]);
    const page = (await b.app.inject({ method: 'GET', url })).json() as GiftCardPage;
    expect(page.items[0]!.businessName).toBe(newName);
  });

  it('answers 20 parallel first reads of one page alike', async () => {
    const owner = await registerAndLogin(a.app, 'business');
    const card = await createCard(owner);
    const url = `${catalogueOf(owner)}&limit=7`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.app.inject({ method: 'GET', url })));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(answers[0]!.body);
    }
    expect((answers[0]!.json() as GiftCardPage).items.map((c) => c.id)).toEqual([card.id]);
  });

  it('answers a URL asked before as it answered it first: every header but the request id, and HEAD too', async () => {
    const owner = await registerAndLogin(a.app, 'business');
    await createCard(owner);
    const url = `${catalogueOf(owner)}&limit=5`;
    const first = await a.app.inject({ method: 'GET', url });
    expect(first.statusCode, first.body).toBe(200);
    // The second ask keeps the page (if the first came before this instance listened); the third finds it by
    // its URL, in the route's onRequest hook.
    await a.app.inject({ method: 'GET', url });
    const third = await a.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'till-42' } });
    const others = (headers: Record<string, unknown>) => {
      const rest = { ...headers };
      delete rest['x-request-id'];
      delete rest.date;
      return rest;
    };
    expect(third.statusCode).toBe(200);
    expect(third.body).toBe(first.body);
    expect(others(third.headers)).toEqual(others(first.headers));
    expect(third.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(third.headers['x-request-id']).toBe('till-42');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const head = await a.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(first.headers.etag);
  });

  it('still refuses a bad query with a clear 400 (never a kept page)', async () => {
    const res = await a.app.inject({ method: 'GET', url: '/api/v1/gift-cards?limit=0' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const bad = await a.app.inject({ method: 'GET', url: '/api/v1/gift-cards?cursor=not-a-cursor' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});

describe('CatalogueCache', () => {
  const named = namedDatabase('giftmart-catalogue-cache-test');

  // A channel of its own: the other test files change gift cards all the time, which would empty it.
  const channel = `catalogue_cache_test_${process.pid}`;
  const newCache = (options: { maxEntries?: number; maxBytes?: number; channel?: string } = {}) =>
    new CatalogueCache({ db: named.database.db, log: pino({ level: 'silent' }), channel, ...options });

  it('reads fresh until it listens, then keeps pages and loads a page once for concurrent askers', async () => {
    const cache = newCache();
    try {
      let loads = 0;
      const load = async () => {
        loads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return JSON.stringify({ loads });
      };
      await cache.get('k', load); // starts listening; not kept
      await expect.poll(() => cache.listening).toBe(true);
      const before = loads;
      const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
      expect(loads).toBe(before + 1);
      expect(new Set(answers.map((p) => p.body.toString())).size).toBe(1);
      expect(cache.size).toBe(1);
      await cache.get('k', load);
      expect(loads).toBe(before + 1);
    } finally {
      cache.close();
    }
  });

  it('does not keep a page whose read overlapped a change', async () => {
    const cache = newCache();
    try {
      await cache.get('warm', async () => '{}');
      await expect.poll(() => cache.listening).toBe(true);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const reading = cache.get('k', async () => {
        await gate;
        return '"old"';
      });
      cache.invalidate(); // a change commits while the read is under way
      release();
      expect((await reading).body.toString()).toBe('"old"');
      expect(cache.size).toBe(0);
      const next = await cache.get('k', async () => '"new"');
      expect(next.body.toString()).toBe('"new"');
      expect(cache.size).toBe(1);
    } finally {
      cache.close();
    }
  });

  it('keeps at most its number of pages and bytes, dropping the oldest', async () => {
    const cache = newCache({ maxEntries: 3, maxBytes: 10_000 });
    try {
      await cache.get('warm', async () => '{}');
      await expect.poll(() => cache.listening).toBe(true);
      for (let i = 0; i < 10; i++) await cache.get(`k${i}`, async () => JSON.stringify({ i }));
      expect(cache.size).toBe(3);
      let loaded = false;
      await cache.get('k0', async () => {
        loaded = true;
        return '{}';
      });
      expect(loaded).toBe(true);
      // A page larger than the whole budget is sent but never kept.
      await cache.get('huge', async () => JSON.stringify('x'.repeat(20_000)));
      expect(cache.size).toBeLessThanOrEqual(3);
      let again = false;
      await cache.get('huge', async () => {
        again = true;
        return '""';
      });
      expect(again).toBe(true);
    } finally {
      cache.close();
    }
  });

  it('serves nothing from memory while its LISTEN connection is down, and keeps pages again once it is back', async () => {
    const cache = newCache();
    try {
      await cache.get('warm', async () => '{}');
      await expect.poll(() => cache.listening).toBe(true);
      await cache.get('k', async () => '"kept"');
      expect(cache.size).toBe(1);
      expect(await named.killListenConnections()).toBe(1);
      await expect.poll(() => cache.listening).toBe(false);
      expect(cache.size).toBe(0);
      const fresh = await cache.get('k', async () => '"fresh"');
      expect(fresh.body.toString()).toBe('"fresh"');
      await expect.poll(() => cache.listening, { timeout: 10_000 }).toBe(true);
      await cache.get('k', async () => '"again"');
      expect(cache.size).toBe(1);
    } finally {
      cache.close();
    }
  });

  it('answers a URL it was told of with that page while it is kept, and nothing once it is dropped or while not listening', async () => {
    const cache = newCache();
    try {
      await cache.get('warm', async () => '{}');
      await expect.poll(() => cache.listening).toBe(true);
      const kept = await cache.get('k', async () => '"kept"');
      expect(cache.keptFor('/a')).toBeUndefined(); // not told of it yet
      cache.remember('/a', 'k');
      cache.remember('/b', 'not kept');
      expect(cache.keptFor('/a')).toBe(kept);
      expect(cache.keptFor('/b')).toBeUndefined();
      const long = `/a?junk=${'x'.repeat(600)}`;
      cache.remember(long, 'k');
      expect(cache.keptFor(long)).toBeUndefined();

      cache.invalidate();
      expect(cache.keptFor('/a')).toBeUndefined();
      // Kept again under its key, the page is found through the URL again: the URL names the key, not a copy.
      const again = await cache.get('k', async () => '"again"');
      expect(cache.keptFor('/a')).toBe(again);

      expect(await named.killListenConnections()).toBe(1);
      await expect.poll(() => cache.listening).toBe(false);
      expect(cache.keptFor('/a')).toBeUndefined();
    } finally {
      cache.close();
    }
  });

  it('drops its pages when PostgreSQL announces a change to gift cards', async () => {
    const cache = newCache({ channel: CATALOGUE_CHANNEL });
    try {
      await cache.get('warm', async () => '{}');
      await expect.poll(() => cache.listening).toBe(true);
      await cache.get('k', async () => '"kept"');
      await named.database.pool.query(`UPDATE gift_cards SET updated_at = updated_at WHERE false`);
      await expect.poll(() => cache.size).toBe(0);
    } finally {
      cache.close();
    }
  });
});
