import { createHmac } from 'node:crypto';

/** What payment and payout providers share: signature failures, header reading, Paystack's signing. */
export class InvalidSignatureError extends Error {}

export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const PAYSTACK_API = 'https://api.paystack.co';
export const PAYSTACK_SIGNATURE_HEADER = 'x-paystack-signature';

/** x-paystack-signature is the HMAC-SHA512 of the raw request body, keyed with the secret key (hex). */
export function signPaystack(secretKey: string, rawBody: string | Buffer): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}
