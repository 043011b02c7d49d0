import { describe, expect, it } from 'vitest';
import { DEFAULT_CURRENCY, formatMoney, parseMoney, toDecimalString, toLegacyMajorUnits } from './money';

describe('formatMoney', () => {
  it('shows naira the way the product does: ₦12,500.00', () => {
    expect(formatMoney({ amount: 1_250_000, currency: 'NGN' })).toBe('₦12,500.00');
  });

  it.each([
    [{ amount: 0, currency: 'NGN' }, '₦0.00'],
    [{ amount: 5, currency: 'NGN' }, '₦0.05'],
    [{ amount: 99, currency: 'NGN' }, '₦0.99'],
    [{ amount: 100, currency: 'NGN' }, '₦1.00'],
    [{ amount: 1_250_050, currency: 'NGN' }, '₦12,500.50'],
    [{ amount: 123_456_789, currency: 'NGN' }, '₦1,234,567.89'],
    [{ amount: -1_250_000, currency: 'NGN' }, '-₦12,500.00'],
    [{ amount: 1234, currency: 'USD' }, '$12.34'],
    [{ amount: 123_456, currency: 'GBP' }, '£1,234.56'],
    [{ amount: 123_456, currency: 'EUR' }, '€1,234.56'],
    [{ amount: 500, currency: 'JPY' }, '¥500'],
  ])('formats %j as %s', (money, expected) => {
    expect(formatMoney(money)).toBe(expected);
  });

  it('formats the largest safe amount exactly, with no float rounding', () => {
    expect(formatMoney({ amount: Number.MAX_SAFE_INTEGER, currency: 'NGN' })).toBe('₦90,071,992,547,409.91');
  });

  it('formats 0.1 + 0.2 worth of kobo as 30 kobo', () => {
    expect(formatMoney({ amount: 10 + 20, currency: 'NGN' })).toBe('₦0.30');
  });

  it('answers the same text for an amount formatted again, in its own currency, past the texts it keeps', () => {
    // More amounts than formatMoney keeps (1,000), then the first ones again: each in its own currency.
    const amounts = Array.from({ length: 2_500 }, (_, i) => i * 101);
    const first = amounts.map((amount) => formatMoney({ amount, currency: 'NGN' }));
    expect(amounts.map((amount) => formatMoney({ amount, currency: 'NGN' }))).toEqual(first);
    expect(formatMoney({ amount: 1234, currency: 'USD' })).toBe('$12.34');
    expect(formatMoney({ amount: 1234, currency: 'NGN' })).toBe('₦12.34');
    expect(first[2_499]).toBe('₦2,523.99');
  });

  it.each([
    ['NGN', 'en-NG'],
    ['USD', 'en-US'],
    ['GBP', 'en-GB'],
    ['EUR', 'en-IE'],
  ])('writes %s without Intl, in the very text Intl writes for %s', (currency, locale) => {
    const intl = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    });
    const amounts = [0, 1, 9, 10, 99, 100, 999, 1_000, 99_999, 100_000, 123_456_789, Number.MAX_SAFE_INTEGER];
    for (let digits = 1; digits <= 16; digits += 1)
      amounts.push(Number('9'.repeat(digits)), 10 ** (digits - 1));
    for (const amount of [...amounts, ...amounts.map((a) => -a).filter((a) => a < 0)]) {
      const money = { amount, currency };
      expect(formatMoney(money), String(amount)).toBe(
        intl.format(toDecimalString(money) as unknown as number),
      );
    }
  });

  it('defaults to NGN', () => {
    expect(DEFAULT_CURRENCY).toBe('NGN');
  });
});

describe('parseMoney', () => {
  it.each([
    ['12500', 1_250_000],
    ['12,500', 1_250_000],
    ['12,500.5', 1_250_050],
    ['12,500.50', 1_250_050],
    ['₦12,500.50', 1_250_050],
    [' ₦ 12 500 ', 1_250_000],
    ['0', 0],
    ['0.01', 1],
    ['0.1', 10],
    ['1.', 100],
    ['$19.99', 1999],
    ['0019.99', 1999],
  ])('reads %j as %d kobo', (text, minor) => {
    expect(parseMoney(text, 'NGN')).toBe(minor);
  });

  it('reads 0.29 as exactly 29 minor units (a float would give 28.999…)', () => {
    expect(parseMoney('0.29', 'NGN')).toBe(29);
    expect(parseMoney('1.15', 'USD')).toBe(115);
    expect(parseMoney('4.35', 'USD')).toBe(435);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['abc', 'not a number'],
    ['-5', 'negative'],
    ['12.345', 'too many decimals'],
    ['.5', 'no whole part'],
    ['1e3', 'exponent'],
    ['12.5.0', 'two points'],
    ['0x10', 'hex'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['90071992547409.92', 'beyond the safe integer range'],
  ])('refuses %j (%s)', (text) => {
    expect(parseMoney(text, 'NGN')).toBeNull();
  });

  it('respects the currency’s decimals', () => {
    expect(parseMoney('500', 'JPY')).toBe(500);
    expect(parseMoney('500.5', 'JPY')).toBeNull();
    expect(parseMoney('90071992547409.91', 'NGN')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('round-trips with formatMoney', () => {
    for (const amount of [0, 1, 99, 1_250_050, 987_654_321]) {
      expect(parseMoney(formatMoney({ amount, currency: 'NGN' }), 'NGN')).toBe(amount);
    }
  });
});

describe('toLegacyMajorUnits', () => {
  it.each([
    [0, 0],
    [1_250_000, 12_500],
    [1_250_050, 12_500.5],
    [1, 0.01],
    [500_000, 5000],
    [-250, -2.5],
  ])('turns %d kobo into %d naira for the old client', (amount, major) => {
    expect(toLegacyMajorUnits({ amount, currency: 'NGN' })).toBe(major);
  });

  it('uses the currency’s decimals', () => {
    expect(toLegacyMajorUnits({ amount: 500, currency: 'JPY' })).toBe(500);
    expect(toLegacyMajorUnits({ amount: 1999, currency: 'USD' })).toBe(19.99);
  });
});

describe('toDecimalString', () => {
  it.each([
    [1_250_000, '12500.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [0, '0.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('writes %d kobo as %s', (amount, text) => {
    expect(toDecimalString({ amount, currency: 'NGN' })).toBe(text);
  });
});
