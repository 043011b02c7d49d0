import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CODE_ALPHABET,
  CODE_BODY_LENGTH,
  checkCharacter,
  formatCode,
  parseCode,
} from '../../../shared/cards/codes';
import { codeBodyOf, createCodeVault, randomCodeBody } from './code-vault';

/**
 * Redemption codes at rest (PRODUCT.md "Codes"): 80 random bits as 16 Crockford characters, a check
 * character that catches a typo, a keyed hash for look-ups and an authenticated encrypted copy for the owner.
 */
const SECRET = 'code-vault-test-secret-0123456789abcdef';
const OTHER_SECRET = 'another-code-vault-secret-0123456789abc';
const BODY = new RegExp(`^[${CODE_ALPHABET}]{${CODE_BODY_LENGTH}}$`);
const FORMATTED = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}-[0-9A-HJKMNP-TV-Z]$/;

describe('generated codes', () => {
  it('100,000 codes are all distinct, in the Crockford alphabet, and pass their check character', () => {
    const vault = createCodeVault(SECRET);
    const bodies = new Set<string>();
    const hashes = new Set<string>();
    for (let i = 0; i < 100_000; i += 1) {
      const code = vault.generate();
      if (!BODY.test(code.body)) expect.fail(`not 16 Crockford characters: ${code.body}`);
      const formatted = formatCode(code.body);
      if (!FORMATTED.test(formatted)) expect.fail(`badly formatted: ${formatted}`);
      const parsed = parseCode(formatted);
      if (!parsed.ok || parsed.body !== code.body) expect.fail(`${formatted} does not parse back`);
      if (code.last4 !== code.body.slice(-4)) expect.fail(`last4 ${code.last4} of ${code.body}`);
      bodies.add(code.body);
      hashes.add(code.hash);
    }
    expect(bodies.size).toBe(100_000);
    expect(hashes.size).toBe(100_000);
  });

  it('uses every character of the alphabet in every position (80 bits, no bias towards a few)', () => {
    const counts = Array.from({ length: CODE_BODY_LENGTH }, () => new Map<string, number>());
    for (let i = 0; i < 20_000; i += 1) {
      const body = randomCodeBody();
      [...body].forEach((char, position) =>
        counts[position]!.set(char, (counts[position]!.get(char) ?? 0) + 1),
      );
    }
    for (const perPosition of counts) {
      expect([...perPosition.keys()].sort().join('')).toBe([...CODE_ALPHABET].sort().join(''));
      // 20,000 / 32 = 625 expected per character; a fair source stays far inside these bounds.
      for (const count of perPosition.values()) {
        expect(count).toBeGreaterThan(450);
        expect(count).toBeLessThan(800);
      }
    }
  });

  it('never contains the look-alikes I, L, O or U', () => {
    for (let i = 0; i < 10_000; i += 1) expect(randomCodeBody()).not.toMatch(/[ILOU]/);
  });
});

describe('bytes as a code body', () => {
  it("reads the bytes' bits from the first byte's highest, 5 at a time", () => {
    expect(codeBodyOf(new Uint8Array(10))).toBe('0000000000000000');
    expect(codeBodyOf(new Uint8Array(10).fill(255))).toBe('ZZZZZZZZZZZZZZZZ');
    expect(codeBodyOf(Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBe('000G40R40M30E209');
    expect(codeBodyOf(Buffer.from('8a3f00c2e1ff7b1d5e90', 'hex'))).toBe('H8ZG1GQ1ZXXHTQMG');
  });
});

describe('the keyed hash', () => {
  it('is stable: the same body gives the same hash, also from another vault with the same secret', () => {
    const vault = createCodeVault(SECRET);
    const code = vault.generate();
    expect(vault.hash(code.body)).toBe(code.hash);
    expect(vault.hash(code.body)).toBe(vault.hash(code.body));
    expect(createCodeVault(SECRET).hash(code.body)).toBe(code.hash);
    expect(code.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is keyed: another secret gives another hash, and it is not a plain hash of the body', () => {
    const vault = createCodeVault(SECRET);
    const other = createCodeVault(OTHER_SECRET);
    const code = vault.generate();
    expect(other.hash(code.body)).not.toBe(code.hash);
    expect(code.hash).not.toBe(createHash('sha256').update(code.body).digest('hex'));
    expect(code.hash).not.toContain(code.body);
  });

  it('differs for bodies that differ in one character', () => {
    const vault = createCodeVault(SECRET);
    const body = randomCodeBody();
    const changed = body.slice(0, -1) + (body.endsWith('0') ? '1' : '0');
    expect(vault.hash(changed)).not.toBe(vault.hash(body));
  });
});

describe('the encrypted copy', () => {
  it('decrypts back to the body', () => {
    const vault = createCodeVault(SECRET);
    for (let i = 0; i < 1_000; i += 1) {
      const code = vault.generate();
      expect(vault.decrypt(code.ciphertext)).toBe(code.body);
      expect(createCodeVault(SECRET).decrypt(code.ciphertext)).toBe(code.body);
    }
  });

  it('does not contain the body, and encrypting twice never gives the same ciphertext', () => {
    const vault = createCodeVault(SECRET);
    const code = vault.generate();
    expect(code.ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(code.ciphertext).not.toContain(code.body);
    const ciphertexts = new Set(Array.from({ length: 1_000 }, () => vault.generate().ciphertext));
    expect(ciphertexts.size).toBe(1_000);
  });

  it('refuses a ciphertext with any one byte changed', () => {
    const vault = createCodeVault(SECRET);
    const code = vault.generate();
    const raw = Buffer.from(code.ciphertext.slice(3), 'base64url');
    // Every byte: the IV (0-11), the tag (12-27) and the encrypted body (28-).
    for (let i = 0; i < raw.length; i += 1) {
      const tampered = Buffer.from(raw);
      tampered[i] = tampered[i]! ^ 0x01;
      expect(() => vault.decrypt(`v1.${tampered.toString('base64url')}`), `byte ${i}`).toThrow();
    }
  });

  it('refuses a truncated ciphertext and one made with another secret', () => {
    const vault = createCodeVault(SECRET);
    const code = vault.generate();
    expect(() => vault.decrypt(code.ciphertext.slice(0, -4))).toThrow();
    expect(() => createCodeVault(OTHER_SECRET).decrypt(code.ciphertext)).toThrow();
  });
});

describe('the check character', () => {
  it('catches every single-character typo of a formatted code, for 300 codes', () => {
    const vault = createCodeVault(SECRET);
    for (let n = 0; n < 300; n += 1) {
      const formatted = formatCode(vault.generate().body);
      for (let i = 0; i < formatted.length; i += 1) {
        if (formatted[i] === '-') continue;
        for (const replacement of CODE_ALPHABET) {
          if (replacement === formatted[i]) continue;
          const typo = formatted.slice(0, i) + replacement + formatted.slice(i + 1);
          const parsed = parseCode(typo);
          if (parsed.ok) expect.fail(`the typo ${typo} of ${formatted} was accepted`);
          expect(parsed.reason).toBe('check');
        }
      }
    }
  });

  it('catches a character outside the alphabet (U, *) as a format error', () => {
    const formatted = formatCode(randomCodeBody());
    for (let i = 0; i < formatted.length; i += 1) {
      if (formatted[i] === '-') continue;
      for (const bad of ['U', '*', '#']) {
        const typo = formatted.slice(0, i) + bad + formatted.slice(i + 1);
        expect(parseCode(typo)).toEqual({ ok: false, reason: 'format' });
      }
    }
  });

  it('catches a missing or an extra character', () => {
    const body = randomCodeBody();
    const compact = body + checkCharacter(body);
    for (let i = 0; i < compact.length; i += 1) {
      expect(parseCode(compact.slice(0, i) + compact.slice(i + 1)).ok).toBe(false);
      expect(parseCode(compact.slice(0, i) + '7' + compact.slice(i)).ok).toBe(false);
    }
  });

  it('accepts the code in lower case, without separators, or with spaces', () => {
    const body = randomCodeBody();
    const formatted = formatCode(body);
    for (const typed of [
      formatted,
      formatted.toLowerCase(),
      formatted.replace(/-/g, ''),
      formatted.replace(/-/g, ' '),
      ` ${formatted.toLowerCase().replace(/-/g, '')} `,
    ]) {
      expect(parseCode(typed), typed).toEqual({ ok: true, body });
    }
  });
});
