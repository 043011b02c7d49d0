import { describe, expect, it } from 'vitest';
import { cleanUserAgent, describeUserAgent } from './user-agent';

const agents: [string, string][] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome on Windows',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Edge on Windows',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Safari on iPhone',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    'Chrome on iPhone',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    'Safari on iPad',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
    'Safari on Mac',
  ],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox on Mac'],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0', 'Firefox on Linux'],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    'Samsung Internet on Android',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
    'Opera on Windows',
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome on ChromeOS',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36',
    'Chrome on Linux',
  ],
  ['curl/8.5.0', 'Unknown browser'],
  ['lightMyRequest', 'Unknown browser'],
  ['Mozilla/5.0 (Windows NT 10.0) SomethingNew/1.0', 'Unknown browser on Windows'],
  ['', 'Unknown browser'],
];

describe('describeUserAgent', () => {
  it.each(agents)('%s → %s', (ua, expected) => {
    expect(describeUserAgent(ua, 'cookie')).toBe(expected);
  });

  it('a missing header is an unknown browser; any Bearer token is an API token', () => {
    expect(describeUserAgent(null, 'cookie')).toBe('Unknown browser');
    expect(describeUserAgent(undefined, 'cookie')).toBe('Unknown browser');
    expect(describeUserAgent(agents[0]![0], 'bearer')).toBe('API token');
    expect(describeUserAgent('curl/8.5.0', 'bearer')).toBe('API token');
  });
});

describe('cleanUserAgent', () => {
  it('strips control characters, trims, keeps at most 512 characters, and stores nothing for nothing', () => {
    expect(cleanUserAgent('Chrome\u0000/1\r\n\u001b[31m x')).toBe('Chrome /1 [31m x');
    expect(cleanUserAgent('a'.repeat(2000))).toHaveLength(512);
    expect(cleanUserAgent(['first', 'second'])).toBe('first');
    expect(cleanUserAgent('  \u0000 ')).toBeNull();
    expect(cleanUserAgent(undefined)).toBeNull();
    expect(cleanUserAgent('')).toBeNull();
  });
});
