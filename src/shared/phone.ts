/**
 * Nigerian phone numbers: people type 0803 123 4567, 08031234567, +234 803-123-4567 or 2348031234567
 * (and the old client sent it as a number, which drops the leading 0). We store E.164: +2348031234567.
 */
const NATIONAL = /^0([789][01]\d{8})$/;
const INTERNATIONAL = /^\+?234([789][01]\d{8})$/;
const NUMBER_WITHOUT_ZERO = /^([789][01]\d{8})$/;

export function normalizeNigerianPhone(input: string | number): string | null {
  const compact = String(input).replace(/[\s\-().]/g, '');
  const subscriber =
    NATIONAL.exec(compact)?.[1] ?? INTERNATIONAL.exec(compact)?.[1] ?? NUMBER_WITHOUT_ZERO.exec(compact)?.[1];
  return subscriber ? `+234${subscriber}` : null;
}

export function digitCount(input: string | number): number {
  return String(input).replace(/\D/g, '').length;
}
