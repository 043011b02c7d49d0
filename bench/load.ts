import autocannon from 'autocannon';
import { cpuDuring, memoryOf, peakRssDuring, type CpuShare } from './results';
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded';

/** Shared helpers for HTTP benchmarks: start a process, wait for it, and load it with autocannon. */
export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  options: { connections?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 32,
    duration: options.seconds ?? 10,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The Node flags `npm start` gives the server (package.json's start script: the heap's bound and growth, ADRs
 * 028 and 045), so a bench measures the server as it runs.
 */
export const SERVER_NODE_FLAGS = serverNodeFlags();

function serverNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const flags = /\bnode((?:\s+--\S+)*)\s+dist\/server\/server\.js/.exec(start);
  if (!flags) throw new Error(`package.json's start script does not run dist/server/server.js: ${start}`);
  return flags[1]!.trim().split(/\s+/).filter(Boolean);
}

/**
 * Starts a process for a benchmark. BENCH_CPU_PROFILE=<dir> runs the app's server (dist/server/server.js)
 * with --cpu-prof, writing its profile there when it stops (open it in Chrome's DevTools);
 * BENCH_QUERY_TIMING=<file> has it time every statement into that file.
 */
export function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const profile = process.env.BENCH_CPU_PROFILE;
  const server = command === 'node' && /(^|\/)server\.js$/.test(args.at(-1) ?? '');
  // BENCH_SERVER_FLAGS='--trace-gc …': more Node flags for the server; BENCH_SERVER_OUT=<file>: its stdout there,
  // `{port}` in the name replaced by the server's port (the catalogue bench runs two apps at once).
  const extra = process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const flagged = server ? [...SERVER_NODE_FLAGS, ...extra, ...args] : args;
  const profiled = profile && server ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, ...flagged] : flagged;
  // BENCH_QUERY_TIMING=<file>: the server times every statement (src/server/db/query-timing.ts) into it.
  const timing = process.env.BENCH_QUERY_TIMING;
  const timed = timing && args.at(-1) === 'dist/server/server.js' ? { PG_QUERY_TIMING: timing } : {};
  return spawn(command, profiled, {
    env: { ...process.env, ...env, ...timed },
    stdio: [
      'ignore',
      server && process.env.BENCH_SERVER_OUT
        ? openSync(process.env.BENCH_SERVER_OUT.replaceAll('{port}', env.PORT ?? ''), 'w')
        : 'ignore',
      'inherit',
    ],
  });
}

export async function waitForUrl(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface LoopResult {
  completed: number;
  failed: number;
  /** the first failure's words ('' when none) */
  firstFailure: string;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** the app's peak RSS during the loop, and its RSS just before it (after the set-up), MiB */
  rssMb: number;
  rssBeforeMb: number;
  cpu: CpuShare;
}

/**
 * One kept-alive HTTP/1.1 connection of the load generator: a request is one string written to the socket,
 * and the answer is read by its status line and Content-Length (the app answers every bench request so;
 * anything else fails the request loudly). node:http's client cost about 0.2 ms of CPU per request on the
 * two cores the app and PostgreSQL share, several times pgbench's own client; this costs a fraction of it.
 */
class Connection {
  private socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: {
    resolve: (answer: { status: number; text: string }) => void;
    reject: (error: Error) => void;
  } | null = null;
  closed = false;

  constructor(host: string, port: number) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.answer();
    });
    const fail = (error: Error) => {
      this.closed = true;
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.reject(error);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('the app closed the connection')));
  }

  request(text: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('the connection is closed'));
      this.waiting = { resolve, reject };
      this.socket.write(text);
    });
  }

  private answer(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.closed = true;
      this.socket.destroy();
      this.waiting.reject(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
      this.waiting = null;
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.buffer.length < total) return;
    const status = Number(head.slice(9, 12));
    const text = this.buffer.toString('utf8', end + 4, total);
    this.buffer = this.buffer.subarray(total);
    const waiting = this.waiting;
    this.waiting = null;
    waiting.resolve({ status, text });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

const idle = new Map<string, Connection[]>();

/**
 * One request of a money bench's load, on a kept-alive connection of its own while it runs (a closed loop's
 * worker sends one request at a time, so 32 workers keep 32 connections).
 */
export async function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  const { host, hostname, port, pathname, search } = new URL(url);
  const free = idle.get(host) ?? [];
  idle.set(host, free);
  let connection = free.pop();
  while (connection?.closed) connection = free.pop();
  connection ??= new Connection(hostname, Number(port));
  let head = `${options.method ?? 'GET'} ${pathname}${search} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(options.headers ?? {})) head += `${name}: ${value}\r\n`;
  const body = options.body ?? '';
  if (body || options.method === 'POST') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  try {
    const answer = await connection.request(`${head}\r\n${body}`);
    if (!connection.closed) free.push(connection);
    return answer;
  } catch (error) {
    connection.close();
    throw error;
  }
}

/**
 * Seconds of each closed loop's load run first and not counted (BENCH_WARMUP_SECONDS, default 4): on a new
 * database and a new server, purchases per second climbed for about four seconds (second by second from the
 * start: 500, 680, 920, 1,070, then 1,000-1,140, with a p99 within each second of 46-65 ms where the first
 * second's was 240 ms). Not taken apart; the likely causes are the server's code being optimized and each
 * pool connection's backend planning its prepared statements and compiling the trigger functions for the
 * first time. pgbench, the loads' anchor, leaves its own start-up out of its tps too ("without initial
 * connection time").
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 4);

/**
 * BENCH_LATENCIES=<file>: each counted operation's start (ms, the load generator's clock) and latency, one line
 * each, into <file>.<n> for the n-th closed loop, to see whether a p99 comes from stalls or from the spread;
 * <file>.<n>.clock holds the machine's monotonic clock in ms at that clock's 0, to line the starts up with a
 * CPU profile of the app (`BENCH_CPU_PROFILE`: its `startTime` and `timeDeltas` are that clock in µs).
 */
let latencyRuns = 0;

/**
 * A closed-loop load: one worker per item, each calling `once` again as soon as it answers, for
 * WARMUP_SECONDS not counted and then `seconds`. `once` answers null for a completed operation or the
 * failure's words (failures are counted in the warm-up too). Latency is of completed ones; the app's peak
 * memory and the CPU per completed operation are sampled around the counted part.
 */
export async function closedLoop<T>(
  app: ChildProcess,
  workers: T[],
  seconds: number,
  once: (worker: T) => Promise<string | null>,
  /** The database's URL, for BENCH_PG_STATEMENTS. */
  databaseUrl?: string,
): Promise<LoopResult> {
  const latencies: number[] = [];
  const timeline: string[] | null = process.env.BENCH_LATENCIES ? [] : null;
  let failed = 0;
  let firstFailure = '';
  const rssBeforeMb = memoryOf(app).rssMb;
  // The workers run on from the warm-up into the counted part, so the count does not start with all of them
  // sending at once; an operation is counted when it is sent after the warm-up.
  const warmedAt = Date.now() + WARMUP_SECONDS * 1000;
  const until = warmedAt + seconds * 1000;
  let counting = false;
  const workersDone = Promise.all(
    workers.map(async (worker) => {
      while (Date.now() < until) {
        const counted = counting;
        const sent = performance.now();
        const failure = await once(worker);
        if (failure !== null) {
          failed += 1;
          firstFailure ||= failure;
        } else if (counted) {
          latencies.push(performance.now() - sent);
          if (timeline) timeline.push(`${Math.round(sent)} ${(performance.now() - sent).toFixed(2)}`);
        }
      }
    }),
  );
  // Awaited below (`run`); a worker's error during the warm-up must not be an unhandled rejection before then.
  workersDone.catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, warmedAt - Date.now())));
  counting = true;
  const perf = perfDuring(seconds);
  const started = performance.now();
  const run = () => workersDone;
  const {
    rssMb,
    result: { cpu },
  } = await waitsDuring(databaseUrl, () =>
    statementsDuring(databaseUrl, () =>
      peakRssDuring(app, () => cpuDuring(app, run, () => latencies.length)),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  await perf;
  if (timeline) {
    const file = `${process.env.BENCH_LATENCIES}.${(latencyRuns += 1)}`;
    writeFileSync(file, timeline.join('\n'));
    writeFileSync(`${file}.clock`, String(Number(process.hrtime.bigint()) / 1e6 - performance.now()));
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(latencies.length * q)] ?? 0);
  return {
    completed: latencies.length,
    failed,
    firstFailure,
    perSecond: Math.round(latencies.length / elapsed),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    rssMb,
    rssBeforeMb,
    cpu,
  };
}

/**
 * BENCH_PERF=<file>: a system-wide `perf record` (cpu-clock, call graphs) over the middle 80 % of each closed
 * loop, into <file>.<n>, so PostgreSQL's backends show where their time goes (its binary keeps its symbols):
 * `perf report -i <file>.1 --comm postgres --no-children`. Needs perf (Debian's linux-perf) and root.
 */
let perfRuns = 0;
function perfDuring(seconds: number): Promise<void> {
  const file = process.env.BENCH_PERF;
  if (!file) return Promise.resolve();
  perfRuns += 1;
  const out = `${file}.${perfRuns}`;
  return new Promise((resolve) => {
    setTimeout(() => {
      const perf = spawn(
        'perf',
        [
          'record',
          '-a',
          // BENCH_PERF_DWARF=1: call graphs from the stack's copy (PostgreSQL is built without frame pointers)
          ...(process.env.BENCH_PERF_DWARF ? ['--call-graph', 'dwarf,16384'] : ['-g']),
          '-F',
          '499',
          '-e',
          'cpu-clock',
          '-o',
          out,
          '--',
          'sleep',
          String(seconds * 0.8),
        ],
        {
          stdio: 'ignore',
        },
      );
      perf.on('exit', () => resolve());
      perf.on('error', () => resolve());
    }, seconds * 100);
  });
}

/** The secrets every benchmark's server runs with (production mode requires them; nothing real is kept). */
export const BENCH_SESSION_SECRET = 'bench-session-secret-bench-session-secret';
const BENCH_CODE_KEY = 'bench-code-key-bench-code-key-bench-code-key';

/**
 * The built server as `npm start` runs it, in production mode with the sandbox provider allowed, on its
 * own port, database and data folder; `env` adds or overrides settings. It logs at `warn`, so the figures
 * are the app's own and not its log's; BENCH_LOG_LEVEL=info measures the default level (ADR 046).
 */
export function startApp(
  port: number,
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string> = {},
): ChildProcess {
  return startProcess('node', ['dist/server/server.js'], {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    SESSION_SECRET: BENCH_SESSION_SECRET,
    CODE_ENCRYPTION_KEY: BENCH_CODE_KEY,
    DATA_DIR: dataDir,
    ...env,
  });
}

/**
 * The money benches' embedded PostgreSQL, in `dataDir`, its database `bench` (with BENCH_PG_STATEMENTS's
 * module). BENCH_PG_SETTINGS='name=value,…' adds settings of its own, to try one (`autovacuum=off`).
 */
export function startBenchDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const settings: Record<string, string> = process.env.BENCH_PG_STATEMENTS
    ? {
        shared_preload_libraries: 'pg_stat_statements',
        'pg_stat_statements.track': 'all',
        'pg_stat_statements.track_planning': 'on',
        track_functions: 'pl',
      }
    : {};
  for (const setting of process.env.BENCH_PG_SETTINGS?.split(',').filter(Boolean) ?? []) {
    const [name, ...value] = setting.split('=');
    settings[name!.trim()] = value.join('=').trim();
  }
  return startEmbeddedPostgres({ dataDir, database: 'bench', settings });
}

/** The bench's own connections to the database it measures, which the waits' samples leave out. */
const BENCH_CLIENT = 'giftmart-bench';

/** The next of a knob's numbered files (<file>.1, <file>.2, …, one per closed loop) and a client on `url`. */
const loadFiles = new Map<string, number>();
async function nextLoadFile(file: string, url: string): Promise<{ out: string; client: pg.Client }> {
  const run = (loadFiles.get(file) ?? 0) + 1;
  loadFiles.set(file, run);
  const client = new pg.Client({ connectionString: url, application_name: BENCH_CLIENT });
  await client.connect();
  return { out: `${file}.${run}`, client };
}

/**
 * BENCH_PG_STATEMENTS=<file>: the embedded PostgreSQL of the money paths' benches loads pg_stat_statements
 * (nested statements too: triggers' queries and foreign-key checks), and each closed loop given the
 * database's URL writes its top statements by execution time to <file>.1, <file>.2, … (calls, total and mean
 * ms, rows, the text's start), numbered like BENCH_PERF's, with <file>.N.tables (each table's writes),
 * <file>.N.functions (each PL/pgSQL function's calls and time, track_functions) and <file>.N.wal (the WAL
 * written during the load: records, full-page images, bytes, and under `kinds` the records by kind read back
 * with pg_walinspect). Off otherwise; the product never loads either extension.
 * PostgreSQL 18 seems to count every foreign-key check as one statement (each names its table `x`), shown
 * with the first one's text.
 */
async function statementsDuring<T>(url: string | undefined, run: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_PG_STATEMENTS;
  if (!file || !url) return run();
  const { out, client } = await nextLoadFile(file, url);
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
    // The tables' and functions' counters of this database too: the files below then tell this load's part.
    await client.query('SELECT pg_stat_reset()');
    await client.query("SELECT pg_stat_reset_shared('wal')");
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    const from = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]!.lsn;
    const result = await run();
    // The WAL the load wrote: its records, full-page images and bytes (divide by the load's operations), and
    // by kind of record (pg_walinspect: heap inserts and locks, index inserts, commits, multixacts, …).
    const wal = await client.query('SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal');
    const kinds = await client.query<Record<string, string>>(
      `SELECT "resource_manager/record_type" AS kind, count, round(count_percentage::numeric, 1) AS count_pct,
              record_size + fpi_size AS bytes
         FROM pg_get_wal_stats($1::pg_lsn, pg_current_wal_lsn(), true) WHERE count > 0 ORDER BY count DESC`,
      [from],
    );
    writeFileSync(`${out}.wal`, JSON.stringify({ ...wal.rows[0], kinds: kinds.rows }, null, 2));
    const top = await client.query<Record<string, string>>(
      `SELECT calls, plans, round(total_plan_time::numeric, 1) AS plan_ms, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 4) AS mean_ms,
              rows, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 200) AS query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40`,
    );
    writeFileSync(out, JSON.stringify(top.rows, null, 2));
    // The tables' writes during the load: an update that changes no indexed column and finds room on
    // its page is HOT (no index entries); every other update writes an entry in each of the table's indexes.
    const tables = await client.query<Record<string, string>>(
      `SELECT relname AS table, n_tup_ins AS inserts, n_tup_upd AS updates, n_tup_hot_upd AS hot_updates,
              (SELECT count(*) FROM pg_index i WHERE i.indrelid = relid) AS indexes
         FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd > 0 ORDER BY n_tup_ins + n_tup_upd DESC`,
    );
    writeFileSync(`${out}.tables`, JSON.stringify(tables.rows, null, 2));
    // The PL/pgSQL functions' calls and milliseconds (track_functions): the integrity checks' part (ADR 033).
    const functions = await client.query<Record<string, string>>(
      'SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions ORDER BY total_time DESC',
    );
    writeFileSync(`${out}.functions`, JSON.stringify(functions.rows, null, 2));
    return result;
  } finally {
    await client.end();
  }
}

/**
 * BENCH_PG_WAITS=<file>: while each closed loop given the database's URL runs, its database's busy backends
 * are sampled every 10 ms from pg_stat_activity (one more connection, about 100 short reads a second), and
 * <file>.1, <file>.2, … get the counts of what each was doing: running (no wait event) or waiting, and on
 * what (`IO:WalSync` is a commit's flush, `LWLock:WALWrite` waiting for another backend's flush, `Lock:…` a
 * row or table lock), by the statement's first words; the bench's own connections are left out.
 * <file>.N.timeline has every sample, one line a backend (`idle` when none was busy), after its time in ms on
 * BENCH_LATENCIES's clock, to see what PostgreSQL was doing while the slowest operations waited. Off otherwise.
 */
async function waitsDuring<T>(url: string | undefined, run: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_PG_WAITS;
  if (!file || !url) return run();
  const { out, client } = await nextLoadFile(file, url);
  const counts = new Map<string, number>();
  const timeline: string[] = [];
  let samples = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const at = performance.now().toFixed(1);
      const { rows } = await client.query<{ what: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') || '  ' ||
                left(regexp_replace(query, '\\s+', ' ', 'g'), 40) AS what
           FROM pg_stat_activity
          WHERE datname = current_database() AND application_name <> $1 AND state = 'active'`,
        [BENCH_CLIENT],
      );
      samples += 1;
      for (const { what } of rows) {
        counts.set(what, (counts.get(what) ?? 0) + 1);
        timeline.push(`${at} ${what}`);
      }
      if (rows.length === 0) timeline.push(`${at} idle`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    return await run();
  } finally {
    running = false;
    await sampling.catch(() => undefined);
    await client.end();
    const top = [...counts].sort((x, y) => y[1] - x[1]).map(([what, n]) => ({ n, what }));
    writeFileSync(out, JSON.stringify({ samples, busy: top }, null, 2));
    writeFileSync(`${out}.timeline`, timeline.join('\n'));
  }
}
