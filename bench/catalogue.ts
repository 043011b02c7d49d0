import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { connectDatabase, runMigrations } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { load, startApp, startProcess, stopProcess, waitForUrl, type LoadResult } from './load';
import { peakRssDuring, recordPath, recordResult } from './results';

/**
 * Issues 3 and 14: GET /api/v1/gift-cards, 32 connections, next to a bare Fastify route answering the same
 * JSON from memory (the framework's ceiling here): the first page and a search with 100,000 cards, and the
 * first page with 1,000 and with 1,000,000 cards (the growth ratio). The app keeps running while the
 * database grows, as a real catalogue would; every top-up is announced to its cache like any change.
 */
const BUSINESSES = 1_000;
const APP_PORT = 3320;
const BARE_PORT = 3321;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** CATALOGUE_SIZES=1000,100000 for a shorter run (the growth ratio needs 1,000 and 1,000,000). */
const SIZES = (process.env.CATALOGUE_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const SEARCH = 'Bench Business 7'; // matches 111 of the 1,000 businesses

async function topUp(pool: pg.Pool, from: number, to: number): Promise<void> {
  await pool.query(`
    INSERT INTO gift_cards (business_id, unique_id, amount, currency, colour, created_at)
    SELECT b.ids[1 + g % ${BUSINESSES}], 'BEN-' || upper(substr(md5(g::text), 1, 4)) || '-' || lpad(g::text, 7, '0'),
           (1 + g % 500) * 100000, 'NGN', '#4f46e5', now() - make_interval(secs => g)
    FROM generate_series(${from + 1}, ${to}) g,
         (SELECT array_agg(id ORDER BY name) AS ids FROM accounts WHERE role = 'business' AND name LIKE 'Bench Business %') b`);
  await pool.query('VACUUM ANALYZE gift_cards');
}

export async function benchCatalogue(): Promise<Record<string, string>> {
  const dataDir = path.resolve('data/bench-catalogue');
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir, database: 'bench' });
  const url = process.env.DATABASE_URL ?? embedded!.url;
  const database = connectDatabase(url, { max: 2 });
  await runMigrations(database.db);
  await database.pool.query(`
    INSERT INTO accounts (role, name, email, phone, password_hash)
    SELECT 'business', 'Bench Business ' || g, 'bench-' || g || '-' || md5(random()::text) || '@example.test',
           '+2348030000000', 'not-a-real-hash'
    FROM generate_series(1, ${BUSINESSES}) g`);

  const app = startApp(APP_PORT, url, dataDir);
  const appUrl = `http://127.0.0.1:${APP_PORT}/api/v1/gift-cards`;
  const searchPath = `?q=${encodeURIComponent(SEARCH)}`;
  const results: Record<string, string> = {};
  const firstPageRates = new Map<number, number>();
  /** Per size: the app's first page ÷ the bare route's (median rounds). */
  const anchoredRatios = new Map<number, number>();
  let bare: ReturnType<typeof startProcess> | undefined;
  let cards = 0;
  try {
    await waitForUrl(appUrl);
    for (const size of SIZES) {
      await topUp(database.pool, cards, size);
      cards = size;
      const label = `${size.toLocaleString('en')} cards`;
      await load(appUrl, { seconds: 2 }); // warm up (and the cache has heard of the top-up by now)
      const { result: first, rssMb } = await peakRssDuring(app, () => load(appUrl, { seconds: SECONDS }));
      firstPageRates.set(size, first.requestsPerSecond);
      results[`first page, ${label}: requests/s`] = String(first.requestsPerSecond);
      results[`first page, ${label}: p99`] = `${first.p99Ms} ms`;
      results[`app RSS peak, ${label}`] = `${rssMb} MiB`;
      results[`first page, ${label}: errors / non-2xx`] = `${first.errors} / ${first.non2xx}`;
      // The yardstick: the same bodies from a bare Fastify route, at every size (issue 14: a growth reading
      // of two loads minutes apart moved with the machine's state; anchored at each size, it does not).
      const withSearch = size === 100_000;
      const body = await (await fetch(appUrl)).text();
      const searchBody = await (await fetch(appUrl + searchPath)).text();
      const bodyFile = path.join(os.tmpdir(), 'giftmart-bench-catalogue.json');
      const searchFile = path.join(os.tmpdir(), 'giftmart-bench-catalogue-search.json');
      writeFileSync(bodyFile, body);
      writeFileSync(searchFile, searchBody);
      if (withSearch) {
        results['first page / search page size (bytes)'] =
          `${Buffer.byteLength(body)} / ${Buffer.byteLength(searchBody)}`;
      }
      bare = startProcess('node', ['bench/bare-server.mjs'], {
        PORT: String(BARE_PORT),
        BODY_FILE: bodyFile,
        SEARCH_FILE: searchFile,
      });
      const bareUrl = `http://127.0.0.1:${BARE_PORT}/api/v1/gift-cards`;
      await waitForUrl(bareUrl);
      await load(bareUrl, { seconds: 2 });
      if (withSearch) await load(appUrl + searchPath, { seconds: 2 });
      // The app and the bare route take turns (three rounds, medians): the load generator shares the two
      // cores with them, and a ratio of two loads minutes apart moved by ±20 % with the machine's mood.
      const series: Record<'app' | 'bare' | 'appSearch' | 'bareSearch', LoadResult[]> = {
        app: [],
        bare: [],
        appSearch: [],
        bareSearch: [],
      };
      let searchRss = 0;
      const part = Math.max(2, Math.round(SECONDS / 2));
      for (let round = 0; round < 3; round += 1) {
        series.app.push(await load(appUrl, { seconds: part }));
        series.bare.push(await load(bareUrl, { seconds: part }));
        if (!withSearch) continue;
        const searched = await peakRssDuring(app, () => load(appUrl + searchPath, { seconds: part }));
        searchRss = Math.max(searchRss, searched.rssMb);
        series.appSearch.push(searched.result);
        series.bareSearch.push(await load(bareUrl + searchPath, { seconds: part }));
      }
      await stopProcess(bare);
      bare = undefined;
      const firstRun = median(series.app);
      const ceiling = median(series.bare);
      anchoredRatios.set(size, firstRun.requestsPerSecond / ceiling.requestsPerSecond);
      results[`first page, ${label}: rounds (app ÷ bare)`] = series.app
        .map((run, k) => `${run.requestsPerSecond} ÷ ${series.bare[k]!.requestsPerSecond}`)
        .join(', ');
      if (!withSearch) continue;

      const search = median(series.appSearch);
      const searchCeiling = median(series.bareSearch);
      results['rounds (app ÷ bare, search)'] = series.appSearch
        .map((run, k) => `${run.requestsPerSecond} ÷ ${series.bareSearch[k]!.requestsPerSecond}`)
        .join(', ');
      Object.assign(results, report('first page (median round)', firstRun, ceiling));
      Object.assign(results, report('search (median round)', search, searchCeiling, searchRss));
      Object.assign(
        results,
        recordPath(
          'catalogue',
          {
            rate: firstRun.requestsPerSecond,
            anchorName: 'bare Fastify route, same JSON',
            anchorRate: ceiling.requestsPerSecond,
            p99Ms: firstRun.p99Ms,
            rssMb: Math.max(rssMb, searchRss),
          },
          {
            search: {
              rate: search.requestsPerSecond,
              anchorRate: searchCeiling.requestsPerSecond,
              ratio: Number((search.requestsPerSecond / searchCeiling.requestsPerSecond).toFixed(3)),
              p99Ms: search.p99Ms,
            },
          },
        ),
      );
      results['search: ratio (rate ÷ bare)'] =
        `${((search.requestsPerSecond / searchCeiling.requestsPerSecond) * 100).toFixed(0)} %`;
    }
    const small = firstPageRates.get(1_000);
    const large = firstPageRates.get(1_000_000);
    const smallAnchored = anchoredRatios.get(1_000);
    const largeAnchored = anchoredRatios.get(1_000_000);
    if (small && large && smallAnchored && largeAnchored) {
      // The growth is the app's share of the bare route's rate at 1,000,000 cards over its share at 1,000,
      // each measured in turns with the bare route at that size; the plain ratio of the two loads is kept
      // next to it (it moves with the machine's state between the two readings, minutes apart).
      const growth = Number((largeAnchored / smallAnchored).toFixed(2));
      const unanchored = Number((large / small).toFixed(2));
      results['first page with 1,000,000 ÷ with 1,000 cards (each ÷ bare at its size)'] = String(growth);
      results['first page with 1,000,000 ÷ with 1,000 cards (plain, not anchored)'] = String(unanchored);
      recordResult('growth', { catalogue: growth, catalogueUnanchored: unanchored });
    }
    return results;
  } finally {
    if (bare) await stopProcess(bare);
    await stopProcess(app);
    await database.close();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The run with the median rate (of an odd number of runs). */
function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)]!;
}

function report(name: string, run: LoadResult, ceiling?: LoadResult, rssMb?: number): Record<string, string> {
  return {
    [`${name}: requests/s`]: String(run.requestsPerSecond),
    [`${name}: p99`]: `${run.p99Ms} ms`,
    ...(ceiling ? { [`${name}, bare route: requests/s`]: String(ceiling.requestsPerSecond) } : {}),
    ...(rssMb ? { [`${name}: app RSS peak`]: `${rssMb} MiB` } : {}),
    [`${name}: errors / non-2xx`]: `${run.errors} / ${run.non2xx}`,
  };
}
