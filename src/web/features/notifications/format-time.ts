const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "3 May 2026, 14:05" */
export function absoluteTime(iso: string): string {
  return absolute.format(new Date(iso));
}

/**
 * When something happened, as people say it: "just now", "5 minutes ago", "yesterday", "3 days ago";
 * from a week back, the date and time instead.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const elapsed = now - new Date(iso).getTime();
  if (elapsed < 45_000) return 'just now';
  if (elapsed < HOUR) return relative.format(-Math.max(1, Math.round(elapsed / MINUTE)), 'minute');
  if (elapsed < DAY) return relative.format(-Math.round(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return relative.format(-Math.round(elapsed / DAY), 'day');
  return absoluteTime(iso);
}
