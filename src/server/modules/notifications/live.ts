import type { FastifyBaseLogger } from 'fastify';
import type { Server, ServerResponse } from 'node:http';
import type { Db } from '../../db/client';
import { Listener } from '../../db/listen';
import { countUnread, NOTIFICATIONS_CHANNEL } from './notifications.repository';

/** What the web app's EventSource waits before it reconnects (the stream's `retry:` line). */
export const STREAM_RETRY_MS = 5000;
/** A comment this often keeps proxies and load balancers from closing a quiet stream. */
export const KEEP_ALIVE_MS = 25_000;
/** Open streams per account on one instance; a new one closes the oldest (a tab storm cannot pile up). */
export const MAX_STREAMS_PER_ACCOUNT = 10;
/**
 * A stream lasts at most this long (and never past its session's expiry): the browser then reconnects with
 * its cookie, so a session revoked meanwhile (log-out elsewhere, a deleted account) stops getting news.
 */
export const MAX_STREAM_MS = 15 * 60 * 1000;
/** A client that reads nothing while this much waits to be written is dropped (it reconnects later). */
const MAX_BUFFERED_BYTES = 64 * 1024;

export interface LiveOptions {
  db: Db;
  log: FastifyBaseLogger;
  maxStreamsPerAccount?: number;
  keepAliveMs?: number;
  maxStreamMs?: number;
  /** Back-off of the LISTEN connection's reconnects: base × 2^failures, at most max. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

interface Stream {
  accountId: string;
  res: ServerResponse;
  keepAlive: NodeJS.Timeout;
  lifetime: NodeJS.Timeout;
  /** The newest count this stream was sent, by when its query started: an older answer never follows. */
  sentSeq: number;
}

/**
 * Live unread counts for one app instance. Every instance keeps ONE connection LISTENing on the channel the
 * notifications trigger announces changes on (opened with the first stream, reopened with back-off if it
 * drops). An announcement names an account; if it has streams open here, its unread count is read again
 * (once for a burst) and sent to each as `event: unread`. Instances share nothing but PostgreSQL, so a
 * notification written through any instance reaches a page open on any other.
 */
export class LiveNotifications {
  private readonly streams = new Map<string, Stream[]>();
  private readonly recounting = new Map<string, { again: boolean }>();
  private readonly listener: Listener;
  private seq = 0;
  private closed = false;
  private readonly max: number;
  private readonly keepAliveMs: number;

  constructor(private readonly options: LiveOptions) {
    this.max = options.maxStreamsPerAccount ?? MAX_STREAMS_PER_ACCOUNT;
    this.keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
    this.listener = new Listener({
      db: options.db,
      channel: NOTIFICATIONS_CHANNEL,
      log: options.log,
      onPayload: (accountId) => {
        if (accountId) this.changed(accountId);
      },
      // Changes made while the connection was down were announced to nobody: recount every open stream.
      onRecovered: () => {
        for (const accountId of this.streams.keys()) this.changed(accountId);
      },
      ...(options.reconnectBaseMs !== undefined ? { reconnectBaseMs: options.reconnectBaseMs } : {}),
      ...(options.reconnectMaxMs !== undefined ? { reconnectMaxMs: options.reconnectMaxMs } : {}),
    });
  }

  /** Open streams on this instance (all accounts, or one). */
  count(accountId?: string): number {
    if (accountId) return this.streams.get(accountId)?.length ?? 0;
    let n = 0;
    for (const list of this.streams.values()) n += list.length;
    return n;
  }

  /** Whether the LISTEN connection is up. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /**
   * Serves an account's stream on a response whose head is already written. The count is sent at once
   * (after LISTEN is up, so no change can fall between the two) and again on every change; the stream
   * ends by `endBy` (the session's expiry) or after MAX_STREAM_MS, whichever is first.
   */
  async open(accountId: string, res: ServerResponse, endBy?: Date): Promise<void> {
    if (this.closed || res.destroyed || res.writableEnded) {
      if (!res.writableEnded) res.end();
      return;
    }
    const maxMs = this.options.maxStreamMs ?? MAX_STREAM_MS;
    const lifetimeMs = Math.max(0, Math.min(maxMs, endBy ? endBy.getTime() - Date.now() : maxMs));
    const stream: Stream = {
      accountId,
      res,
      sentSeq: 0,
      keepAlive: setInterval(() => this.write(stream, ': keep-alive\n\n'), this.keepAliveMs),
      lifetime: setTimeout(() => this.end(stream), lifetimeMs),
    };
    const list = this.streams.get(accountId) ?? [];
    list.push(stream);
    this.streams.set(accountId, list);
    res.on('close', () => this.remove(stream));
    while (list.length > this.max) this.end(list[0]!);
    this.write(stream, `retry: ${STREAM_RETRY_MS}\n\n`);

    await this.listener.start();
    const seq = ++this.seq;
    try {
      const unread = await countUnread(this.options.db, accountId);
      this.sendUnread(stream, seq, unread);
    } catch (error) {
      this.options.log.error({ err: error }, 'could not count unread notifications for a stream');
      this.end(stream);
    }
  }

  /** Ends every stream and releases the LISTEN connection; later streams are refused. Safe to call twice. */
  close(): void {
    this.closed = true;
    for (const list of [...this.streams.values()]) for (const stream of [...list]) this.end(stream);
    this.listener.close();
  }

  private sendUnread(stream: Stream, seq: number, unread: number): void {
    if (seq <= stream.sentSeq) return;
    stream.sentSeq = seq;
    this.write(stream, `event: unread\ndata: ${JSON.stringify({ unread })}\n\n`);
  }

  private write(stream: Stream, chunk: string): void {
    const { res } = stream;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.end(stream);
      return;
    }
    res.write(chunk);
  }

  private end(stream: Stream): void {
    this.remove(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  private remove(stream: Stream): void {
    clearInterval(stream.keepAlive);
    clearTimeout(stream.lifetime);
    const list = this.streams.get(stream.accountId);
    if (!list) return;
    const at = list.indexOf(stream);
    if (at !== -1) list.splice(at, 1);
    if (list.length === 0) this.streams.delete(stream.accountId);
  }

  /** An account's notifications changed: recount once for a burst of announcements, then send. */
  private changed(accountId: string): void {
    if (this.closed || !this.streams.has(accountId)) return;
    const running = this.recounting.get(accountId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.recounting.set(accountId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          const seq = ++this.seq;
          const unread = await countUnread(this.options.db, accountId);
          for (const stream of this.streams.get(accountId) ?? []) this.sendUnread(stream, seq, unread);
        } while (state.again && !this.closed && this.streams.has(accountId));
      } catch (error) {
        this.options.log.error({ err: error }, 'could not recount unread notifications');
      } finally {
        this.recounting.delete(accountId);
      }
    })();
  }
}

const hubs = new WeakMap<Server, LiveNotifications>();

/** Records which hub serves an app's HTTP server, so tests and diagnostics can look at it. */
export function serveLiveNotificationsOn(server: Server, hub: LiveNotifications): void {
  hubs.set(server, hub);
}

/** The hub serving an app's HTTP server (`app.server`), if its notification routes are registered. */
export function liveNotificationsOn(server: Server): LiveNotifications | undefined {
  return hubs.get(server);
}
