/**
 * Where to go after logging in or signing up (`?next=`), when it is safe: a path on this site only.
 * A value that could leave the site is refused — `//evil.example` and `/\evil.example` are read by
 * browsers as another host, and anything with a scheme (`https:`, `javascript:`) is not a path — and so
 * is anything with control characters or whitespace that a browser might strip into one of those.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || value.length > 512) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f\s\\]/.test(value)) return null;
  try {
    // Resolved against a placeholder origin, a same-site path stays on it.
    const url = new URL(value, 'https://giftmart.invalid');
    if (url.origin !== 'https://giftmart.invalid') return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** `?next=<path>` to add to a login or sign-up link (empty when there is nowhere safe to go back to). */
export function nextQuery(next: string | null | undefined): string {
  const safe = safeNextPath(next);
  return safe ? `?next=${encodeURIComponent(safe)}` : '';
}
