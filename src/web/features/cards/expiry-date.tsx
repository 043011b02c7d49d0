import { formatDate } from './format';

/** When a card expires, as a date a screen reader can read, or "Never" for a card without expiry. */
export function ExpiryDate({ expiresAt }: { expiresAt: string | null }) {
  return expiresAt ? <time dateTime={expiresAt}>{formatDate(expiresAt)}</time> : <>Never</>;
}
