import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from './crypto';

describe('pooledRandomBytes', () => {
  it('answers the size asked for, fresh bytes each time, across many refills of its pool', () => {
    // 20,000 draws of 10 bytes cross the 4 KB pool about fifty times; 80 random bits never repeat by chance.
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i += 1) {
      const bytes = pooledRandomBytes(10);
      expect(bytes.length).toBe(10);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(20_000);
  });

  it('hands out copies: zeroing one draw leaves the next one random', () => {
    const first = pooledRandomBytes(12);
    const copy = Buffer.from(first);
    first.fill(0);
    const second = pooledRandomBytes(12);
    expect(second.equals(Buffer.alloc(12))).toBe(false);
    expect(second.equals(copy)).toBe(false);
  });

  it('spreads its bytes over every value (no zeroed or reused stretch of the pool)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4_000; i += 1) for (const byte of pooledRandomBytes(16)) counts[byte]! += 1;
    // 64,000 bytes: 250 of each value on average; a zeroed stretch would pile up on 0.
    expect(Math.max(...counts)).toBeLessThan(400);
    expect(Math.min(...counts)).toBeGreaterThan(130);
  });

  it('takes a large draw straight from the CSPRNG', () => {
    const big = pooledRandomBytes(1024);
    expect(big.length).toBe(1024);
    expect(big.equals(Buffer.alloc(1024))).toBe(false);
  });
});
