import type pg from 'pg';
import type { Db } from './client';

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
 * The one connection of a pool held for LISTEN, shared by every started Listener on that pool: it LISTENs on
 * their channels, hands each announcement to the listeners of its channel, tells them all when it is lost
 * and comes back with back-off, and goes (destroyed, never back into the pool) with its last listener.
 * Issue 14: each room had held a connection of its own (live unread counts, the catalogue's pages, sessions).
 */
class SharedConnection {
  private client: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly listeners = new Set<Listener>();
  /** The channels LISTENed on `client`. */
  private readonly channels = new Set<string>();
  /** The LISTENs sent on `client` and not yet answered, by channel: whoever asks meanwhile waits for it. */
  private readonly listensSent = new Map<string, Promise<void>>();
  /**
   * Each connection's last statement: the next is sent once it is answered. node-postgres queues statements
   * sent to a busy connection only with a deprecation warning, and will not from pg 9.
   */
  private readonly lastSent = new WeakMap<pg.PoolClient, Promise<unknown>>();

  constructor(private readonly pool: pg.Pool) {}

  listening(channel: string): boolean {
    return this.client !== undefined && this.channels.has(channel);
  }

  /** Resolves once the listener's channel is listened to, or the attempt failed (a retry is scheduled). */
  async add(listener: Listener): Promise<void> {
    this.listeners.add(listener);
    if (!this.client) await this.connectOnce();
    if (this.client && this.listeners.has(listener)) await this.listenTo(this.client, listener.channel);
  }

  remove(listener: Listener): void {
    if (!this.listeners.delete(listener)) return;
    const client = this.client;
    if (this.listeners.size === 0) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.failures = 0;
      if (client) this.drop(client);
      return;
    }
    if (client && !this.wanted().has(listener.channel)) {
      // A LISTEN still on its way is superseded: one asked for after this goes after the UNLISTEN.
      this.channels.delete(listener.channel);
      this.listensSent.delete(listener.channel);
      this.send(client, `UNLISTEN ${listener.channel}`).catch(() => undefined);
    }
  }

  private wanted(): Set<string> {
    return new Set([...this.listeners].map((l) => l.channel));
  }

  /** Sends `text` on `client` once its statements before have been answered. */
  private send(client: pg.PoolClient, text: string): Promise<unknown> {
    const sent = (this.lastSent.get(client) ?? Promise.resolve()).then(() => client.query(text));
    this.lastSent.set(
      client,
      sent.catch(() => undefined),
    );
    return sent;
  }

  /**
   * LISTENs on `channel`, once: every read that finds its cache not yet listening starts its listener
   * (ChangeCounter.begin), so many ask for the same channel at once.
   */
  private listenTo(client: pg.PoolClient, channel: string): Promise<void> {
    if (this.channels.has(channel)) return Promise.resolve();
    const pending = this.listensSent.get(channel);
    if (pending) return pending;
    const listened: Promise<void> = this.send(client, `LISTEN ${channel}`).then(
      () => {
        if (this.listensSent.get(channel) !== listened) return;
        this.listensSent.delete(channel);
        if (this.client === client) this.channels.add(channel);
      },
      (error: Error) => {
        if (this.listensSent.get(channel) === listened) this.listensSent.delete(channel);
        this.lost(client, error);
      },
    );
    this.listensSent.set(channel, listened);
    return listened;
  }

  /** Connects, or joins the attempt under way. */
  private connectOnce(): Promise<void> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      this.failed(error as Error);
      return;
    }
    client.on('notification', (message) => {
      for (const listener of this.listeners) {
        if (listener.channel === message.channel) listener.announced(message.payload ?? '');
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the LISTEN connection ended')));
    const channels = this.wanted();
    try {
      for (const channel of channels) await this.send(client, `LISTEN ${channel}`);
    } catch (error) {
      this.drop(client, error as Error);
      this.failed(error as Error);
      return;
    }
    if (this.listeners.size === 0) {
      this.drop(client);
      return;
    }
    this.client = client;
    for (const channel of channels) this.channels.add(channel);
    this.failures = 0;
    for (const listener of this.listeners) listener.up();
  }

  /** The connection in use errored or ended: every listener hears it, and it is opened again later. */
  private lost(client: pg.PoolClient, error: Error): void {
    if (client !== this.client) return;
    this.drop(client, error);
    this.anyLog()?.warn({ err: error, channels: [...this.wanted()] }, 'LISTEN connection lost; reconnecting');
    for (const listener of this.listeners) listener.down();
    this.scheduleReconnect();
  }

  private failed(error: Error): void {
    this.anyLog()?.warn({ err: error, channels: [...this.wanted()] }, 'could not LISTEN; retrying');
    for (const listener of this.listeners) listener.down();
    this.scheduleReconnect();
  }

  private drop(client: pg.PoolClient, error?: Error): void {
    if (client === this.client) {
      this.client = undefined;
      this.channels.clear();
      this.listensSent.clear();
    }
    client.removeAllListeners('notification');
    try {
      client.release(error ?? true);
    } catch {
      // Released already (an error and an end can both arrive).
    }
  }

  private anyLog(): ListenerOptions['log'] | undefined {
    return this.listeners.values().next().value?.log;
  }

  private scheduleReconnect(): void {
    if (this.listeners.size === 0 || this.reconnectTimer) return;
    const options = [...this.listeners].map((l) => l.backOff);
    const base = Math.min(...options.map((o) => o.baseMs));
    const max = Math.min(...options.map((o) => o.maxMs));
    const delay = Math.min(base * 2 ** this.failures, max);
    this.failures += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.listeners.size > 0 && !this.client) void this.connectOnce();
    }, delay);
    this.reconnectTimer.unref();
  }
}

const connections = new WeakMap<pg.Pool, SharedConnection>();

function sharedConnectionOf(db: Db): SharedConnection {
  // drizzle(pool) keeps its pool as $client (the Db type leaves it out: no other code needs it).
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!pool || typeof pool.connect !== 'function') throw new Error('the database has no pg pool');
  let shared = connections.get(pool);
  if (!shared) {
    shared = new SharedConnection(pool);
    connections.set(pool, shared);
  }
  return shared;
}

/**
 * Announcements on one channel, through the pool's shared LISTEN connection: `start()` joins it (at once if
 * it is up, else by connecting), a lost connection is reopened with back-off, and `listening` says whether
 * announcements on this channel arrive now.
 */
export class Listener {
  readonly channel: string;
  private shared: SharedConnection | undefined;
  private closed = false;
  private wasDown = false;

  constructor(private readonly options: ListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel))
      throw new Error(`not a channel name: ${options.channel}`);
    this.channel = options.channel;
  }

  get listening(): boolean {
    return !this.closed && this.shared !== undefined && this.shared.listening(this.channel);
  }

  get log(): ListenerOptions['log'] {
    return this.options.log;
  }

  get backOff(): { baseMs: number; maxMs: number } {
    return { baseMs: this.options.reconnectBaseMs ?? 1000, maxMs: this.options.reconnectMaxMs ?? 30_000 };
  }

  start(): Promise<void> {
    if (this.closed || this.listening) return Promise.resolve();
    this.shared ??= sharedConnectionOf(this.options.db);
    return this.shared.add(this);
  }

  close(): void {
    this.closed = true;
    this.shared?.remove(this);
  }

  /** @internal The shared connection hands over an announcement on this channel. */
  announced(payload: string): void {
    this.options.onPayload(payload);
  }

  /** @internal The shared connection is up with this channel (again, after `down`: a recovery). */
  up(): void {
    if (!this.wasDown) return;
    this.wasDown = false;
    this.options.onRecovered?.();
  }

  /** @internal The shared connection was lost, or could not be opened. */
  down(): void {
    const wasUp = !this.wasDown;
    this.wasDown = true;
    if (wasUp) this.options.onLost?.();
  }
}

/** What a cache kept by a ChangeCounter is made with. */
export interface AnnouncedCacheOptions {
  db: Db;
  log: ListenerOptions['log'];
  /** Tests listen on a channel of their own, so other tests' changes do not empty their cache. */
  channel?: string;
}

/**
 * What an instance keeps in memory that announcements on a channel make stale (the catalogue's pages, the
 * sessions it looked up). A read notes `begin()` first and keeps its result only if `mayKeep` says so:
 * nothing was announced, nor `changed()` called, since the read began, and announcements arrive. While they
 * cannot (not yet up, or lost), nothing may be kept, and the first `begin()` starts listening.
 * `onChange` drops what is kept: on every announcement, on a loss and on a recovery.
 */
export class ChangeCounter {
  private generation = 0;
  private readonly listener: Listener;
  private readonly onChange: () => void;

  constructor(options: Pick<ListenerOptions, 'db' | 'channel' | 'log'> & { onChange(): void }) {
    this.onChange = options.onChange;
    const changed = () => this.changed();
    this.listener = new Listener({
      db: options.db,
      channel: options.channel,
      log: options.log,
      onPayload: changed,
      onLost: changed,
      onRecovered: changed,
    });
  }

  /** Whether announcements arrive (only then may anything be kept). */
  get listening(): boolean {
    return this.listener.listening;
  }

  /** A change made here or announced: what is kept is dropped, and reads under way are not kept. */
  changed(): void {
    this.generation += 1;
    this.onChange();
  }

  /** Marks the start of a read: undefined (and listening started) while nothing may be kept. */
  begin(): number | undefined {
    if (this.listener.listening) return this.generation;
    void this.listener.start();
    return undefined;
  }

  /** Whether a read that began at `mark` may be kept. */
  mayKeep(mark: number | undefined): boolean {
    return mark !== undefined && mark === this.generation && this.listener.listening;
  }

  close(): void {
    this.listener.close();
    this.changed();
  }
}
