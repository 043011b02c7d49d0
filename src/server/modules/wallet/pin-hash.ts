import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../lib/crypto';
import { verifyPassword } from '../../lib/passwords';

/**
 * How a transaction PIN is kept: HMAC-SHA256 under a server key rather than a slow password hash (why:
 * pin.service.ts). A database dump without the key gives nothing to guess the 10,000 PINs against.
 *
 * The key is derived from CODE_ENCRYPTION_KEY with its own label, as the redemption code keys are
 * (cards/code-vault.ts), so it is never the key of another use. The account id is part of the message, so two
 * businesses with the same PIN have different hashes. The stored string names its scheme, so another can
 * follow; argon2id hashes from before (`$argon2id$…`) are still read until their owner's next right PIN.
 */
const PREFIX = 'hmac-sha256$v1$';
const KEY_LABEL = 'giftmart transaction PIN v1';

const keys = new Map<string, Buffer>();

/** Derived once per secret (one in production; tests use a few). */
function pinKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.alloc(0), KEY_LABEL, 32));
    keys.set(secret, key);
  }
  return key;
}

/** `hmac-sha256$v1$<hex>` of the account id and the PIN; `secret` is CODE_ENCRYPTION_KEY. */
export function hashPin(secret: string, accountId: string, pin: string): string {
  const mac = createHmac('sha256', pinKey(secret)).update(`${accountId}:${pin}`).digest('hex');
  return `${PREFIX}${mac}`;
}

/** True for a hash in today's form; anything else (argon2id) should be rewritten after a right PIN. */
export function isCurrentPinHash(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Whether `pin` is the account's PIN, for a hash in today's form or an argon2id one from before. */
export async function verifyPin(
  secret: string,
  accountId: string,
  pin: string,
  stored: string,
): Promise<boolean> {
  if (isCurrentPinHash(stored)) return constantTimeEqual(stored, hashPin(secret, accountId, pin));
  if (stored.startsWith('$argon2id$')) return verifyPassword(stored, pin);
  return false;
}
