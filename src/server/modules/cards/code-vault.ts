import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { pooledRandomBytes } from '../../lib/crypto';
import { CODE_ALPHABET, CODE_BODY_LENGTH, lastFour } from '../../../shared/cards/codes';

/**
 * Redemption codes at rest: a keyed hash (HMAC-SHA256) to find a card by its code, and an AES-256-GCM copy
 * so its owner can see it again. Both keys are derived from CODE_ENCRYPTION_KEY, so a database dump alone
 * reveals no code.
 */
export interface CodeVault {
  generate(): { body: string; hash: string; ciphertext: string; last4: string };
  hash(body: string): string;
  decrypt(ciphertext: string): string;
}

/** 80 bits from the CSPRNG, as 16 Crockford base32 characters (5 bits each). */
export function randomCodeBody(): string {
  const bytes = pooledRandomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let body = '';
  for (let i = 0; i < CODE_BODY_LENGTH; i += 1) {
    body = CODE_ALPHABET[Number(bits & 31n)] + body;
    bits >>= 5n;
  }
  return body;
}

export function createCodeVault(secret: string): CodeVault {
  const master = Buffer.from(secret);
  const hashKey = Buffer.from(
    hkdfSync('sha256', master, Buffer.alloc(0), 'giftmart redemption code hash', 32),
  );
  const encryptionKey = Buffer.from(
    hkdfSync('sha256', master, Buffer.alloc(0), 'giftmart redemption code encryption', 32),
  );

  const hash = (body: string) => createHmac('sha256', hashKey).update(body).digest('hex');

  return {
    hash,
    generate() {
      const body = randomCodeBody();
      const iv = pooledRandomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const encrypted = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
      const ciphertext = `v1.${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url')}`;
      return { body, hash: hash(body), ciphertext, last4: lastFour(body) };
    },
    decrypt(ciphertext) {
      const raw = Buffer.from(ciphertext.replace(/^v1\./, ''), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
