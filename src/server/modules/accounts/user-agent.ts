/**
 * A short, human description of a User-Agent header for the list of signed-in devices ("Chrome on Windows",
 * "Safari on iPhone"). Only the common browsers and systems are named; anything else is "Unknown browser"
 * rather than a guess. Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", and
 * iPads/iPhones running Chrome say "CriOS".
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

export function describeUserAgent(userAgent: string | null | undefined, kind: 'cookie' | 'bearer'): string {
  const ua = userAgent?.trim() ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  // A Bearer token is an API client's, whatever sent the request that made it.
  if (kind === 'bearer') return 'API token';
  if (!browser) return system ? `Unknown browser on ${system}` : 'Unknown browser';
  return system ? `${browser} on ${system}` : browser;
}

const MAX_USER_AGENT = 512;
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** What is stored: no control characters, at most 512 characters, or nothing. */
export function cleanUserAgent(userAgent: string | string[] | null | undefined): string | null {
  const raw = Array.isArray(userAgent) ? userAgent[0] : userAgent;
  if (!raw) return null;
  const cleaned = raw.replace(CONTROL, ' ').trim().slice(0, MAX_USER_AGENT);
  return cleaned || null;
}
