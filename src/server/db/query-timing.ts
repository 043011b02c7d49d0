import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type pg from 'pg';

/**
 * A profiler for benchmarks (issue 14), off unless PG_QUERY_TIMING names a file: every statement's round
 * trip (sent → answered, so it includes waits for locks and the commit's flush) is timed by its text, and
 * when the process exits the totals are written to that file as JSON, slowest total first, with how late the
 * event loop ran what was ready while statements were in flight (`loopDelayMs`). The bench sets it; the app
 * never does in production.
 */
export function timeQueries(pool: pg.Pool, file: string | undefined): void {
  if (!file) return;
  const stats = new Map<string, { count: number; totalMs: number; maxMs: number }>();
  let checkouts = 0;
  let checkoutWaitMs = 0;
  // How late the app's one thread ran what was ready (a statement's answer, a request), sampled only while a
  // statement is in flight: not the idle app between a bench's rounds, but its set-up too (sign-ins, the
  // first compiles), so the top percentile and the max are mostly the set-up's.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let inFlight = 0;
  const begin = () => {
    if (inFlight++ === 0) loop.enable();
  };
  const record = (text: string, ms: number) => {
    if (--inFlight === 0) loop.disable();
    const key = text.replace(/\s+/g, ' ').slice(0, 160);
    const entry = stats.get(key) ?? { count: 0, totalMs: 0, maxMs: 0 };
    entry.count += 1;
    entry.totalMs += ms;
    entry.maxMs = Math.max(entry.maxMs, ms);
    stats.set(key, entry);
  };
  const wrap = (target: { query: (...args: unknown[]) => unknown }) => {
    const original = target.query.bind(target);
    target.query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first?.text ?? '?');
      const started = performance.now();
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        // pool.query sends its statement with a callback
        begin();
        args[last] = (error: unknown, res: unknown) => {
          record(error ? `(failed) ${text}` : text, performance.now() - started);
          (callback as (e: unknown, r: unknown) => void)(error, res);
        };
        return original(...args);
      }
      const result = original(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        begin();
        void (result as Promise<unknown>).then(
          () => record(text, performance.now() - started),
          () => record(`(failed) ${text}`, performance.now() - started),
        );
      }
      return result;
    };
  };
  pool.on('connect', (client) => wrap(client as unknown as { query: (...args: unknown[]) => unknown }));
  const connect = pool.connect.bind(pool) as (cb?: (...a: unknown[]) => void) => Promise<pg.PoolClient>;
  (pool as unknown as { connect: (cb?: (...a: unknown[]) => void) => unknown }).connect = (cb) => {
    const started = performance.now();
    const done = () => {
      checkouts += 1;
      checkoutWaitMs += performance.now() - started;
    };
    if (cb) {
      return connect((...a: unknown[]) => {
        done();
        cb(...a);
      });
    }
    return connect().then((client) => {
      done();
      return client;
    });
  };
  process.on('exit', () => {
    loop.disable();
    const ms = (ns: number) => Math.round(ns / 10_000) / 100;
    const loopDelayMs = {
      mean: ms(loop.mean),
      p50: ms(loop.percentile(50)),
      p90: ms(loop.percentile(90)),
      p99: ms(loop.percentile(99)),
      max: ms(loop.max),
    };
    const rows = [...stats.entries()]
      .map(([sql, s]) => ({ sql, ...s, avgMs: s.totalMs / s.count }))
      .sort((a, b) => b.totalMs - a.totalMs);
    writeFileSync(
      file,
      JSON.stringify({ checkouts, checkoutWaitMs, loopDelayMs, statements: rows }, null, 2),
    );
  });
}
