/**
 * Money is an integer number of minor units (kobo, cents) plus an ISO 4217 currency code, end to end.
 * Never a float: amounts typed by people are parsed from text with `parseMoney`, and the only place a
 * major-unit number is produced is `toLegacyMajorUnits`, for the old client's `{moneyWorth, Balance}` fields.
 */
export interface Money {
  /** Integer minor units. */
  amount: number;
  currency: string;
}

export const DEFAULT_CURRENCY = 'NGN';

/**
 * The currencies the product offers: their locale and their symbol, both with two minor digits. Their texts
 * are written here rather than by Intl: a page's first Intl.NumberFormat costs about 12 ms of ICU's start-up
 * (50 ms on Lighthouse's slowed phone), which was a fifth of the catalogue's first render (issue 14). The text
 * is Intl's, to the character (money.test.ts compares every pattern); any other currency goes through Intl.
 */
const OFFERED: Record<string, { locale: string; symbol: string }> = {
  NGN: { locale: 'en-NG', symbol: '₦' },
  USD: { locale: 'en-US', symbol: '$' },
  GBP: { locale: 'en-GB', symbol: '£' },
  EUR: { locale: 'en-IE', symbol: '€' },
};
const OFFERED_DIGITS = 2;

/** Per currency, made once: its formatter, and its number of minor digits (2 for NGN, 0 for JPY). */
const currencies = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function currencyOf(code: string): { format: Intl.NumberFormat; digits: number } {
  let known = currencies.get(code);
  if (!known) {
    const format = new Intl.NumberFormat(OFFERED[code]?.locale ?? 'en', {
      style: 'currency',
      currency: code,
      currencyDisplay: 'narrowSymbol',
    });
    known = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    currencies.set(code, known);
  }
  return known;
}

function minorDigits(currency: string): number {
  return OFFERED[currency] ? OFFERED_DIGITS : currencyOf(currency).digits;
}

/** "-₦1,234,567.05" for an offered currency's "-1234567.05", as Intl writes it. */
function formatOffered(symbol: string, decimal: string): string {
  const negative = decimal.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  return `${negative ? '-' : ''}${symbol}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/**
 * The texts formatted lately, by currency and amount: a server formats the same few card values over and over
 * (each sale's news names its value twice), and Intl's formatting of a decimal string was about 2 % of the
 * app's CPU per purchase (issue 14). Emptied when it holds `FORMATTED_KEPT`, so it stays small.
 */
const formatted = new Map<string, string>();
const FORMATTED_KEPT = 1_000;

/** ₦12,500.00 for { amount: 1250000, currency: 'NGN' }. */
export function formatMoney(money: Money): string {
  const key = `${money.currency} ${money.amount}`;
  let text = formatted.get(key);
  if (text === undefined) {
    const offered = OFFERED[money.currency];
    // Intl formats a decimal string exactly, so no float rounding touches the amount.
    text = offered
      ? formatOffered(offered.symbol, toDecimalString(money))
      : currencyOf(money.currency).format.format(toDecimalString(money) as unknown as number);
    if (formatted.size >= FORMATTED_KEPT) formatted.clear();
    formatted.set(key, text);
  }
  return text;
}

/**
 * Parses what a person typed ("12500", "12,500.5", "₦12,500.50") into minor units.
 * Returns null when it is not a plain non-negative amount with at most the currency's decimals.
 */
export function parseMoney(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const cleaned = text.replace(/[\s,₦$£€]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const frac = match[2] ?? '';
  if (frac.length > digits) return null;
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(frac.padEnd(digits, '0') || '0');
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(minor);
}

/** The old API spoke major units as a JSON number (`moneyWorth: 5000`); only its adapters use this. */
export function toLegacyMajorUnits(money: Money): number {
  return Number(toDecimalString(money));
}

/** "12500.00" for { amount: 1250000, currency: 'NGN' }: exact, no float arithmetic. */
export function toDecimalString(money: Money): string {
  const digits = minorDigits(money.currency);
  const big = BigInt(money.amount);
  const abs = big < 0n ? -big : big;
  const scale = 10n ** BigInt(digits);
  const frac = digits > 0 ? `.${(abs % scale).toString().padStart(digits, '0')}` : '';
  return `${big < 0n ? '-' : ''}${abs / scale}${frac}`;
}
