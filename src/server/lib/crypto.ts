import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits from the operating system's CSPRNG, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Keyed hash for secrets we must look up but never store (session tokens, later redemption codes). */
export function keyedHash(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
