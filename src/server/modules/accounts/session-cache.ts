import { ChangeCounter, type AnnouncedCacheOptions } from '../../db/listen';
import type { accounts, sessions } from '../../db/schema/accounts';

/** The channel migration 0014's triggers announce every change to a session or an account on. */
export const SESSIONS_CHANNEL = 'giftmart_sessions';

export interface SessionCacheOptions extends AnnouncedCacheOptions {
  /** At most this many sessions, the oldest dropped first. */
  maxEntries?: number;
  /** A kept session is read again from the database after this long, whatever was announced. */
  maxAgeMs?: number;
}

/** A live session with its account, as a request's look-up finds it. */
export interface LiveSession {
  session: typeof sessions.$inferSelect;
  account: typeof accounts.$inferSelect;
}

interface Kept {
  live: LiveSession;
  keptAt: number;
}

const caches = new Set<SessionCache>();

/**
 * Forgets every session kept by every session cache in this process. The accounts room's repositories call it
 * right after they change a session or an account, so this instance never answers from memory after its own
 * change, not even in the moment before the announcement comes back.
 */
export function forgetCachedSessions(): void {
  for (const cache of caches) cache.forgetAll();
}

/**
 * The live sessions this instance has looked up, by their token's keyed hash (issue 14: the look-up was one
 * statement of every signed-in request, one of the seven of a redemption). Kept correct like the catalogue
 * cache: each instance LISTENs on SESSIONS_CHANNEL, where the database announces, at commit, every revocation,
 * expiry change or account change (name, e-mail, password, deletion), and forgets everything on any of them;
 * a look-up that began before the announcement is not kept; and nothing is kept or answered from memory while
 * the LISTEN connection is down, since changes would then reach nobody. A kept session past its expiry is not
 * answered, and after `maxAgeMs` it is read again anyway.
 */
export class SessionCache {
  private readonly entries = new Map<string, Kept>();
  private readonly changes: ChangeCounter;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;

  constructor(options: SessionCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.changes = new ChangeCounter({
      db: options.db,
      channel: options.channel ?? SESSIONS_CHANNEL,
      log: options.log,
      onChange: () => this.entries.clear(),
    });
    caches.add(this);
  }

  /** Sessions kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether announcements arrive (sessions are kept only then). */
  get listening(): boolean {
    return this.changes.listening;
  }

  /** The live session whose token has this keyed hash: from memory, or read by `load` and kept. */
  async get(
    tokenHash: string,
    load: () => Promise<LiveSession | undefined>,
  ): Promise<LiveSession | undefined> {
    const mark = this.changes.begin();
    // Until announcements arrive (the first look-up starts listening), every session is read fresh.
    if (mark === undefined) return load();
    const kept = this.entries.get(tokenHash);
    const now = Date.now();
    if (kept && now - kept.keptAt < this.maxAgeMs && kept.live.session.expiresAt.getTime() > now)
      return kept.live;
    if (kept) this.entries.delete(tokenHash);
    const live = await load();
    if (live && this.changes.mayKeep(mark)) this.keep(tokenHash, live, now);
    return live;
  }

  /** The session was just marked seen (not announced: "last seen" changes nothing a request decides on). */
  seen(tokenHash: string, at: Date): void {
    const kept = this.entries.get(tokenHash);
    if (kept) kept.live = { ...kept.live, session: { ...kept.live.session, lastSeenAt: at } };
  }

  /** Forgets every session; look-ups under way when this is called are not kept. */
  forgetAll(): void {
    this.changes.changed();
  }

  /** Stops listening and forgets every session (the app is closing). */
  close(): void {
    caches.delete(this);
    this.changes.close();
  }

  private keep(tokenHash: string, live: LiveSession, now: number): void {
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { live, keptAt: now });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}
