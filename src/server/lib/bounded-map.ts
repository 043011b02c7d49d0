/**
 * A map that holds at most `maxEntries` values, the oldest written dropped first, and (with `maxAgeMs`)
 * answers none older than that. Issue 14: what an instance remembers of rows it has just read or written,
 * so that the next request about them need not read them again; whatever is remembered is checked by the
 * statement that uses it, so a value dropped early costs a read, never a wrong answer.
 */
export class BoundedMap<K, V> {
  /**
   * Each entry lets go of its value when it leaves the map (`forget`). A Map whose keys come and go (an order
   * remembered until its confirmation) is rebuilt as it fills with removed keys, and V8 keeps the table it
   * replaced, with the entries it held, until the next full collection; an old table holds its entries past
   * the young generation's collections too. Emptied, an entry no longer keeps the order's row, its dates and
   * buffers alive (issue 14: during purchases on the forty-first session's machine, about a quarter less
   * reached the old generation).
   */
  private readonly entries = new Map<K, { value: V | undefined; at: number }>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: { maxEntries: number; maxAgeMs?: number; now?: () => number }) {
    this.maxEntries = options.maxEntries;
    this.maxAgeMs = options.maxAgeMs ?? Infinity;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.live(key)?.value;
  }

  /** The value under `key`, forgotten as it is answered. */
  take(key: K): V | undefined {
    const entry = this.live(key);
    if (!entry) return undefined;
    const { value } = entry;
    this.forget(key, entry);
    return value;
  }

  set(key: K, value: V): void {
    // Written again, it counts as new: a Map iterates in the order keys were first set.
    this.forget(key);
    this.entries.set(key, { value, at: this.now() });
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      this.forget(oldest, entry);
    }
  }

  delete(key: K): void {
    this.forget(key);
  }

  /** The entry under `key`, unless there is none or it is older than maxAgeMs (then it is forgotten). */
  private live(key: K): { value: V | undefined; at: number } | undefined {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.at > this.maxAgeMs) {
      this.forget(key, entry);
      return undefined;
    }
    return entry;
  }

  /** Removes `key`, its entry emptied first (see `entries`). */
  private forget(key: K, entry = this.entries.get(key)): void {
    if (!entry) return;
    entry.value = undefined;
    this.entries.delete(key);
  }
}
