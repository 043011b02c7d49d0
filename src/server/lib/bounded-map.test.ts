import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps at most maxEntries, dropping the oldest written first', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2 });
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3); // written again: now the newest
    map.set('c', 4);
    expect(map.size).toBe(2);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([3, undefined, 4]);
  });

  it('answers nothing older than maxAgeMs', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>({ maxEntries: 10, maxAgeMs: 50, now: () => now });
    map.set('k', 'v');
    now += 50;
    expect(map.get('k')).toBe('v');
    now += 1;
    expect(map.get('k')).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('take answers a value once', () => {
    const map = new BoundedMap<string, string>({ maxEntries: 10 });
    map.set('k', 'v');
    expect(map.take('k')).toBe('v');
    expect(map.take('k')).toBeUndefined();
    map.set('k', 'w');
    map.delete('k');
    expect(map.get('k')).toBeUndefined();
  });

  it('empties an entry as it leaves the map: taken, deleted, written again, dropped as the oldest or expired', () => {
    let now = 0;
    const map = new BoundedMap<string, object>({ maxEntries: 2, maxAgeMs: 10, now: () => now });
    // What V8 may still hold after the map let an entry go (a table it replaced): the entry objects themselves.
    const entries = (map as unknown as { entries: Map<string, { value: unknown }> }).entries;
    const entryOf = (key: string) => entries.get(key)!;
    map.set('taken', {});
    const taken = entryOf('taken');
    expect(map.take('taken')).toEqual({});
    map.set('deleted', {});
    const deleted = entryOf('deleted');
    map.delete('deleted');
    map.set('again', {});
    const replaced = entryOf('again');
    map.set('again', {});
    const dropped = entryOf('again');
    map.set('newer', {});
    map.set('newest', {}); // drops 'again', the oldest written
    expect(map.get('again')).toBeUndefined();
    const expired = entryOf('newer');
    now = 11;
    expect(map.get('newer')).toBeUndefined();
    expect([taken, deleted, replaced, dropped, expired].map((entry) => entry.value)).toEqual(
      Array(5).fill(undefined),
    );
  });
});
