import { ChangeCounter, type AnnouncedCacheOptions } from '../../db/listen';
import { BoundedMap } from '../../lib/bounded-map';
import { prepareBody, preparedSize, type PreparedBody } from '../../lib/prepared-body';

/** The channel migration 0013's triggers announce every change a catalogue page could show on. */
export const CATALOGUE_CHANNEL = 'giftmart_catalogue';

export interface CatalogueCacheOptions extends AnnouncedCacheOptions {
  /** At most this many pages (each kept plain, gzip and brotli), the oldest dropped first. */
  maxEntries?: number;
  /** At most this many bytes of pages and their copies. */
  maxBytes?: number;
}

const caches = new Set<CatalogueCache>();

/** The longest request URL `remember` keeps: a search and a cursor fit well inside it. */
const MAX_REMEMBERED_URL = 512;

/**
 * Drops the pages of every catalogue cache in this process at once: the catalogue room calls it after its
 * own writes, so a read through this instance right after a change never waits for the announcement.
 */
export function invalidateCatalogueCaches(): void {
  for (const cache of caches) cache.invalidate();
}

/**
 * The public catalogue's pages (first pages, searches, later pages), serialized and compressed once and
 * sent from memory (issue 14). Correct across instances: each instance LISTENs on CATALOGUE_CHANNEL and
 * drops everything on any announcement; a page read while a change committed is not kept (the generation
 * moved), and nothing is kept or served from memory while the LISTEN connection is down, since changes
 * would then reach nobody.
 */
export class CatalogueCache {
  private readonly entries = new Map<string, PreparedBody>();
  private readonly loading = new Map<string, { mark: number; page: Promise<PreparedBody> }>();
  /** Request URLs answered before, each with the key of the page it asked for (see `keptFor`). */
  private readonly urls: BoundedMap<string, string>;
  private readonly changes: ChangeCounter;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(options: CatalogueCacheOptions) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.urls = new BoundedMap({ maxEntries: 2 * this.maxEntries });
    this.changes = new ChangeCounter({
      db: options.db,
      channel: options.channel ?? CATALOGUE_CHANNEL,
      log: options.log,
      onChange: () => this.dropAll(),
    });
    caches.add(this);
  }

  /** Pages kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether announcements arrive (pages are kept only then). */
  get listening(): boolean {
    return this.changes.listening;
  }

  /** The page under `key`: from memory, or loaded by `load` (once for concurrent askers) and kept. */
  async get(key: string, load: () => Promise<string>): Promise<PreparedBody> {
    const mark = this.changes.begin();
    // Until announcements arrive (the first ask starts listening), every page is read fresh.
    if (mark === undefined) return prepareBody(await load());
    const kept = this.entries.get(key);
    if (kept) return kept;
    const running = this.loading.get(key);
    if (running && running.mark === mark) return running.page;
    const page = load().then(prepareBody);
    this.loading.set(key, { mark, page });
    try {
      const prepared = await page;
      if (this.changes.mayKeep(mark)) this.keep(key, prepared);
      return prepared;
    } finally {
      if (this.loading.get(key)?.page === page) this.loading.delete(key);
    }
  }

  /**
   * The page kept for a request URL that `remember` was told of, without reading its query again: the same
   * URL always asks for the same page. Undefined when that page is not kept now, or while nothing may be
   * served from memory (announcements do not arrive), so the caller answers it the long way.
   */
  keptFor(url: string): PreparedBody | undefined {
    if (!this.changes.listening) return undefined;
    const key = this.urls.get(url);
    return key === undefined ? undefined : this.entries.get(key);
  }

  /**
   * Notes that `url` asks for the page under `key` (only short URLs: a long one is rarely asked twice). A URL
   * noted already is left as it is: it is asked the long way again after every change, and writing it again
   * each time would only churn the map.
   */
  remember(url: string, key: string): void {
    if (url.length <= MAX_REMEMBERED_URL && this.urls.get(url) !== key) this.urls.set(url, key);
  }

  /** Drops every page; reads under way when this is called are not kept. */
  invalidate(): void {
    this.changes.changed();
  }

  private dropAll(): void {
    this.entries.clear();
    this.loading.clear();
    this.bytes = 0;
  }

  /** Stops listening and forgets every page (the app is closing). */
  close(): void {
    caches.delete(this);
    this.changes.close();
  }

  private keep(key: string, prepared: PreparedBody): void {
    const size = preparedSize(prepared);
    if (size > this.maxBytes) return;
    const replaced = this.entries.get(key);
    if (replaced) this.bytes -= preparedSize(replaced);
    this.entries.set(key, prepared);
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= preparedSize(this.entries.get(oldest)!);
      this.entries.delete(oldest);
    }
  }
}
