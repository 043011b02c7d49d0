import { cardMessages, majorAmountSchema } from '../../../shared/catalogue/schemas';
import { formatMoney, parseMoney } from '../../../shared/money';

/** What the New Gift Card form makes of the Amount field as it is typed. */
export interface CardAmountReading {
  /** The amount to send (minor units) when it can be created; null otherwise. */
  minor: number | null;
  /**
   * What the preview shows, in minor units: the amount typed, even above the largest allowed (the field says
   * so beside it), and 0 only when nothing readable has been typed.
   */
  previewMinor: number;
  /** Why it cannot be created, in words; undefined when it can. */
  error?: string;
  /** The error is "above the largest amount": said at once, because the preview still shows the amount. */
  tooLarge: boolean;
}

// "5,000,000" and "1,000,000.50": commas only where they group thousands, so "12,50" is not read as 1250.
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/** "₦ 5,000,000.00" → "5000000.00": the naira sign, spaces and thousands separators people type. */
export function normaliseAmountText(text: string): string {
  const trimmed = text.trim().replace(/^₦\s*/, '');
  return GROUPED.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
}

/**
 * Reads the Amount with the same rule the API applies (positive, at most 2 decimals, up to `maxMinor`), and
 * what the card preview should show meanwhile.
 */
export function readCardAmount(text: string, currency: string, maxMinor: number): CardAmountReading {
  const normalised = normaliseAmountText(text);
  const typed = /^\d+(\.\d{0,2})?$/.test(normalised) ? parseMoney(normalised, currency) : null;
  const parsed = majorAmountSchema(currency, maxMinor).safeParse(normalised);
  if (parsed.success) return { minor: parsed.data, previewMinor: parsed.data, tooLarge: false };

  const tooLargeMessage = cardMessages.amountTooLarge(formatMoney({ amount: maxMinor, currency }));
  // Digits past what a number can hold exactly are still "too large", not "not an amount".
  const overflow = typed === null && /^\d+(\.\d{0,2})?$/.test(normalised);
  const error = overflow ? tooLargeMessage : (parsed.error.issues[0]?.message ?? cardMessages.amountInvalid);
  return { minor: null, previewMinor: typed ?? 0, error, tooLarge: error === tooLargeMessage };
}

/**
 * The message under the Amount field. The server's answer shows until the amount is changed; the form's own
 * check shows once the person has left the field or pressed Create Card, and follows every change after
 * that, so a corrected amount clears it at once. "Too large" shows as soon as it is typed.
 */
export function amountErrorToShow({
  reading,
  checked,
  serverError,
}: {
  reading: CardAmountReading;
  checked: boolean;
  serverError?: string;
}): string | undefined {
  if (serverError) return serverError;
  if (checked || reading.tooLarge) return reading.error;
  return undefined;
}
