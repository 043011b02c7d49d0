import { afterEach, describe, expect, it } from 'vitest';
import { isoToLocalInput, localInputToIso } from './gift-time';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe("a gift's delivery time", () => {
  it('is sent as an ISO time with the browser’s own offset', () => {
    process.env.TZ = 'Africa/Lagos';
    expect(localInputToIso('2026-05-03T14:05')).toBe('2026-05-03T14:05:00+01:00');
    expect(new Date(localInputToIso('2026-05-03T14:05')!).toISOString()).toBe('2026-05-03T13:05:00.000Z');
  });

  it('works west of Greenwich and with half-hour zones', () => {
    process.env.TZ = 'America/New_York';
    expect(localInputToIso('2026-01-10T09:30')).toBe('2026-01-10T09:30:00-05:00');
    process.env.TZ = 'Asia/Kolkata';
    expect(localInputToIso('2026-01-10T09:30')).toBe('2026-01-10T09:30:00+05:30');
  });

  it('is nothing when the field is empty or not a real time', () => {
    process.env.TZ = 'UTC';
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('tomorrow')).toBeUndefined();
    expect(localInputToIso('2026-02-31T10:00')).toBeUndefined();
    expect(localInputToIso('2026-05-03T14:05')).toBe('2026-05-03T14:05:00+00:00');
  });

  it('goes back into the field the way it came out', () => {
    process.env.TZ = 'Africa/Lagos';
    expect(isoToLocalInput('2026-05-03T13:05:00Z')).toBe('2026-05-03T14:05');
    expect(isoToLocalInput(localInputToIso('2026-12-31T23:59'))).toBe('2026-12-31T23:59');
    expect(isoToLocalInput(undefined)).toBe('');
  });
});
