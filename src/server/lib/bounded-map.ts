/**
 * A map that holds at most `maxEntries` values, the oldest written dropped first, and (with `maxAgeMs`)
 * answers none older than that. Issue 14: what an instance remembers of rows it has just read or written,
 * so that the next request about them need not read them again; whatever is remembered is checked by the
 * statement that uses it, so a value dropped early costs a read, never a wrong answer.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
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
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value under `key`, forgotten as it is answered. */
  take(key: K): V | undefined {
    const value = this.get(key);
    this.entries.delete(key);
    return value;
  }

  set(key: K, value: V): void {
    // Written again, it counts as new: a Map iterates in the order keys were first set.
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
