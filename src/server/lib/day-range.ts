/**
 * A range of calendar days in a time zone (both days included) as the instants a query compares with:
 * `from` is the first day's midnight, `before` the midnight after the last day.
 */
export function dayRange(
  range: { from?: string; to?: string },
  timeZone: string,
): { from?: string; before?: string } {
  return {
    from: range.from ? zonedMidnight(range.from, timeZone) : undefined,
    before: range.to ? zonedMidnight(nextDay(range.to), timeZone) : undefined,
  };
}

function nextDay(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + 24 * 60 * 60 * 1000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC offset of `timeZone` at an instant, in minutes (Africa/Lagos: +60). */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - instant) / 60000);
}

/** Midnight at the start of `date` (YYYY-MM-DD) in `timeZone`, as an ISO instant. */
export function zonedMidnight(date: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const guess = utcMidnight - offsetMinutes(utcMidnight, timeZone) * 60000;
  const exact = utcMidnight - offsetMinutes(guess, timeZone) * 60000;
  return new Date(exact).toISOString();
}
