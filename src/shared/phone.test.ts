import { describe, expect, it } from 'vitest';
import { digitCount, normalizeNigerianPhone } from './phone';

describe('normalizeNigerianPhone', () => {
  it.each([
    ['08031234567', '+2348031234567'],
    ['0803 123 4567', '+2348031234567'],
    ['0803-123-4567', '+2348031234567'],
    ['(0803) 123.4567', '+2348031234567'],
    ['  08031234567  ', '+2348031234567'],
    ['+2348031234567', '+2348031234567'],
    ['+234 803 123 4567', '+2348031234567'],
    ['+234-803-123-4567', '+2348031234567'],
    ['2348031234567', '+2348031234567'],
    ['8031234567', '+2348031234567'],
    ['07012345678', '+2347012345678'],
    ['08101234567', '+2348101234567'],
    ['09012345678', '+2349012345678'],
    ['09112345678', '+2349112345678'],
  ])('turns %j into %s', (input, expected) => {
    expect(normalizeNigerianPhone(input)).toBe(expected);
  });

  it('takes the number the old client sent (a JSON number drops the leading 0)', () => {
    expect(normalizeNigerianPhone(8031234567)).toBe('+2348031234567');
    expect(normalizeNigerianPhone(2349051234567)).toBe('+2349051234567');
  });

  it.each([
    ['', 'empty'],
    ['0803123456', 'one digit short'],
    ['080312345678', 'one digit long'],
    ['803123456', 'short without the 0'],
    ['+23480312345', 'short international'],
    ['+23408031234567', 'international that kept the national 0'],
    ['+14155552671', 'American'],
    ['+447911123456', 'British'],
    ['01234567890', 'Lagos landline'],
    ['08231234567', 'not a mobile prefix (082)'],
    ['06031234567', 'not a mobile prefix (060)'],
    ['0803123456a', 'a letter in it'],
    ['phone', 'no digits'],
    ['+ 234', 'just a country code'],
  ])('refuses %j (%s)', (input) => {
    expect(normalizeNigerianPhone(input)).toBeNull();
  });

  it('refuses a JSON number that is too short', () => {
    expect(normalizeNigerianPhone(80312345)).toBeNull();
    expect(normalizeNigerianPhone(0)).toBeNull();
  });
});

describe('digitCount', () => {
  it('counts only the digits', () => {
    expect(digitCount('0803 123-4567')).toBe(11);
    expect(digitCount('+234 (803) 123 4567')).toBe(13);
    expect(digitCount('abc')).toBe(0);
    expect(digitCount(8031234567)).toBe(10);
  });
});
