import { randomInt } from 'node:crypto';

/** Crockford base32 without I, L, O, U: nothing that reads as another character. */
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A card's public identifier: three letters from the business name, then two groups of four random
 * characters (32^8 ≈ 10^12 per prefix), e.g. "Acme Foods" → ACM-7K2Q-9XTR.
 */
export function makeUniqueId(businessName: string): string {
  const letters = businessName
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  const prefix = (letters + 'XXX').slice(0, 3);
  const group = () => Array.from({ length: 4 }, () => CROCKFORD[randomInt(32)]).join('');
  return `${prefix}-${group()}-${group()}`;
}
