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
});
