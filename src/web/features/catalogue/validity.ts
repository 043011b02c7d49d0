import { MAX_VALIDITY_MONTHS } from '../../../shared/catalogue/schemas';

/** The validity choices on New Gift Card: no expiry (the default) or a number of months. */
export const VALIDITY_MONTHS = [1, 3, 6, 12, 18, 24, 36, 48, 60].filter((m) => m <= MAX_VALIDITY_MONTHS);

/** "12 months", "1 month"; null is "No expiry". */
export function validityLabel(months: number | null): string {
  if (months === null) return 'No expiry';
  return months === 1 ? '1 month' : `${months} months`;
}
