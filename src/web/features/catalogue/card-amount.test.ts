import { describe, expect, it } from 'vitest';
import { cardMessages, DEFAULT_MAX_CARD_AMOUNT_MINOR } from '../../../shared/catalogue/schemas';
import { formatMoney } from '../../../shared/money';
import { amountErrorToShow, readCardAmount } from './card-amount';

const read = (text: string) => readCardAmount(text, 'NGN', DEFAULT_MAX_CARD_AMOUNT_MINOR);
const preview = (text: string) => formatMoney({ amount: read(text).previewMinor, currency: 'NGN' });
const TOO_LARGE = cardMessages.amountTooLarge('₦1,000,000.00');

describe('the New Gift Card amount', () => {
  it('previews ₦5,000,000 as ₦5,000,000.00 (not ₦0.00) and says at once that it is above the largest amount', () => {
    for (const typed of ['5000000', '5,000,000', '₦5,000,000', ' 5000000.00 ']) {
      expect(preview(typed), typed).toBe('₦5,000,000.00');
      const reading = read(typed);
      expect(reading.minor, typed).toBeNull();
      expect(reading.tooLarge, typed).toBe(true);
      expect(amountErrorToShow({ reading, checked: false }), typed).toBe(TOO_LARGE);
    }
  });

  it('accepts the largest allowed amount exactly, and not a kobo more', () => {
    for (const typed of ['1000000', '1,000,000.00']) {
      expect(read(typed).minor, typed).toBe(DEFAULT_MAX_CARD_AMOUNT_MINOR);
      expect(read(typed).error, typed).toBeUndefined();
    }
    expect(preview('1,000,000')).toBe('₦1,000,000.00');
    expect(read('1000000.01')).toMatchObject({ minor: null, error: TOO_LARGE, previewMinor: 100_000_001 });
    // More digits than a number holds exactly: still "too large", and the preview does not invent a value.
    expect(read('99999999999999999999')).toMatchObject({ minor: null, error: TOO_LARGE, previewMinor: 0 });
  });

  it('reads ordinary amounts into kobo', () => {
    expect(read('5000').minor).toBe(500_000);
    expect(read('12500.5').minor).toBe(1_250_050);
    expect(read('12,500.50').minor).toBe(1_250_050);
    expect(read('999.99').minor).toBe(99_999);
  });

  it('refuses what is not an amount, with the rule in words, and previews 0 for it', () => {
    expect(read('')).toMatchObject({ minor: null, error: cardMessages.amountRequired, previewMinor: 0 });
    expect(read('0')).toMatchObject({ minor: null, error: cardMessages.amountPositive });
    expect(read('-5')).toMatchObject({ minor: null, error: cardMessages.amountPositive });
    expect(read('5000.555')).toMatchObject({
      minor: null,
      error: cardMessages.amountDecimals,
      previewMinor: 0,
    });
    expect(read('12,50')).toMatchObject({ minor: null, error: cardMessages.amountInvalid });
    expect(read('5e6')).toMatchObject({ minor: null, error: cardMessages.amountInvalid, previewMinor: 0 });
    expect(read('abc\u0000')).toMatchObject({ minor: null, error: cardMessages.amountInvalid });
  });

  it('clears the error as soon as the amount is corrected', () => {
    // Create Card was pressed with 3 decimals: the field says so.
    expect(amountErrorToShow({ reading: read('5000.555'), checked: true })).toBe(cardMessages.amountDecimals);
    // The person fixes it: no error any more, and the preview follows.
    expect(amountErrorToShow({ reading: read('5000.55'), checked: true })).toBeUndefined();
    expect(preview('5000.55')).toBe('₦5,000.55');
    // Too large, then brought under the limit.
    expect(amountErrorToShow({ reading: read('5000000'), checked: true })).toBe(TOO_LARGE);
    expect(amountErrorToShow({ reading: read('500000'), checked: true })).toBeUndefined();
  });

  it("shows the server's message until the amount is changed (the form drops it on change)", () => {
    expect(amountErrorToShow({ reading: read('700000'), checked: true, serverError: 'too large here' })).toBe(
      'too large here',
    );
    expect(amountErrorToShow({ reading: read('7000'), checked: true })).toBeUndefined();
  });

  it('does not nag while the first amount is being typed, except when it is too large', () => {
    expect(amountErrorToShow({ reading: read('50.'), checked: false })).toBeUndefined();
    expect(amountErrorToShow({ reading: read('5000.555'), checked: false })).toBeUndefined();
  });
});
