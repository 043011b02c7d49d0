/**
 * Redemption codes (PRODUCT.md "Codes"): 16 characters of Crockford base32 (80 random bits) plus one
 * check character, shown as XXXX-XXXX-XXXX-XXXX-C. People may type them in any case, with or without
 * separators, and Crockford's look-alikes (I, L → 1; O → 0) are read as what they resemble. The check
 * character (Luhn mod 32) catches any single mistyped character and most swaps before any look-up.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_BODY_LENGTH = 16;

function valueOf(char: string): number {
  return CODE_ALPHABET.indexOf(char);
}

/** Luhn mod N over the Crockford alphabet (N = 32). */
export function checkCharacter(body: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i -= 1) {
    let addend = factor * valueOf(body[i]!);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / 32) + (addend % 32);
    sum += addend;
  }
  return CODE_ALPHABET[(32 - (sum % 32)) % 32]!;
}

export function formatCode(body: string): string {
  return `${body.match(/.{4}/g)!.join('-')}-${checkCharacter(body)}`;
}

export type ParsedCode = { ok: true; body: string } | { ok: false; reason: 'format' | 'check' };

/** Reads what a person typed; `body` is the 16 characters to look up, only when the check character agrees. */
export function parseCode(input: string): ParsedCode {
  const compact = input
    .toUpperCase()
    .replace(/[\s\-_.]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  if (compact.length !== CODE_BODY_LENGTH + 1 || [...compact].some((c) => valueOf(c) < 0)) {
    return { ok: false, reason: 'format' };
  }
  const body = compact.slice(0, CODE_BODY_LENGTH);
  return checkCharacter(body) === compact[CODE_BODY_LENGTH]
    ? { ok: true, body }
    : { ok: false, reason: 'check' };
}

export function lastFour(body: string): string {
  return body.slice(-4);
}
