import { describe, expect, it } from 'vitest';
import { absoluteTime, relativeTime } from './format-time';

const now = Date.parse('2026-05-10T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('when a notification arrived', () => {
  it('says it as people do within a week', () => {
    expect(relativeTime(ago(10_000), now)).toBe('just now');
    expect(relativeTime(ago(60_000), now)).toBe('1 minute ago');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3_600_000), now)).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3_600_000), now)).toBe('yesterday');
    expect(relativeTime(ago(3 * 86_400_000), now)).toBe('3 days ago');
  });

  it('gives the date and time from a week back', () => {
    const iso = ago(10 * 86_400_000);
    expect(relativeTime(iso, now)).toBe(absoluteTime(iso));
    expect(absoluteTime(iso)).toMatch(/2026/);
  });

  it('never says "in 1 minute" for a clock a little ahead', () => {
    expect(relativeTime(new Date(now + 5_000).toISOString(), now)).toBe('just now');
  });
});
