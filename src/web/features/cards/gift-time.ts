const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A `datetime-local` value ("2026-05-03T14:05", the browser's own time zone) as an ISO time with that
 * zone's offset ("2026-05-03T14:05:00+01:00"), as the API takes a gift's delivery time. Empty or not a
 * time: undefined.
 */
export function localInputToIso(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '00'] = match;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // A time that does not exist (a skipped daylight-saving hour) or a day like 31 February.
  if (Number.isNaN(date.getTime()) || date.getDate() !== Number(d) || date.getMonth() !== Number(mo) - 1) {
    return undefined;
  }
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** An ISO time as a `datetime-local` value in the browser's time zone ("2026-05-03T14:05"). */
export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The `min` of the delivery field: a minute from now, in the browser's time zone. */
export function localInputNow(now: Date = new Date()): string {
  return isoToLocalInput(new Date(now.getTime() + 60_000).toISOString());
}
