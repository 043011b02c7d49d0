import type pg from 'pg';
import type { Db } from './client';

/**
 * One connection of the pool held for `LISTEN channel`: each announcement's payload goes to `onPayload`;
 * `onLost` is called once if the connection errors or ends (not after `close()`). Rooms that react to
 * changes other instances make (live unread counts, the catalogue cache) each keep one.
 */
async function listen(
  db: Db,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: (error: Error) => void,
): Promise<{ close(): void }> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  // drizzle(pool) keeps its pool as $client (the Db type leaves it out: no other code needs it).
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!pool || typeof pool.connect !== 'function') throw new Error('the database has no pg pool');
  const client = await pool.connect();
  let done = false;
  const release = (error?: Error) => {
    if (done) return;
    done = true;
    client.removeAllListeners('notification');
    client.release(error ?? true);
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onPayload(message.payload ?? '');
  });
  const lost = (error?: Error) => {
    if (done) return;
    const reason = error ?? new Error('the LISTEN connection ended');
    release(reason);
    onLost(reason);
  };
  client.on('error', lost);
  client.on('end', () => lost());
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    release(error as Error);
    throw error;
  }
  return { close: () => release() };
}

export interface ListenerOptions {
  db: Db;
  channel: string;
  log: { warn(obj: object, msg: string): void };
  onPayload(payload: string): void;
  /** Called when the connection is lost (before the reconnects start). */
  onLost?(): void;
  /** Called each time the connection is up again after it was lost (announcements in between went to nobody). */
  onRecovered?(): void;
  /** Back-off of reconnects: base × 2^failures, at most max. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

/**
 * A LISTEN connection that comes back by itself: `start()` connects (once, however often it is called),
 * a lost connection is reopened with back-off, and `listening` says whether announcements arrive now.
 */
export class Listener {
  private connection: { close(): void } | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: ListenerOptions) {}

  get listening(): boolean {
    return this.connection !== undefined;
  }

  start(): Promise<void> {
    if (this.connection || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.connection?.close();
    this.connection = undefined;
  }

  private async connect(): Promise<void> {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const { channel, log } = this.options;
    try {
      const connection = await listen(this.options.db, channel, this.options.onPayload, (error) => {
        if (this.connection !== connection) return;
        this.connection = undefined;
        this.options.onLost?.();
        log.warn({ err: error, channel }, 'LISTEN connection lost; reconnecting');
        this.scheduleReconnect();
      });
      if (this.closed) {
        connection.close();
        return;
      }
      const recovering = this.failures > 0;
      this.connection = connection;
      this.failures = 0;
      if (recovering) this.options.onRecovered?.();
    } catch (error) {
      log.warn({ err: error, channel }, 'could not LISTEN; retrying');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const base = this.options.reconnectBaseMs ?? 1000;
    const delay = Math.min(base * 2 ** this.failures, this.options.reconnectMaxMs ?? 30_000);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.start();
    }, delay);
    this.reconnectTimer.unref();
  }
}
