import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, checkCharacter, formatCode, parseCode } from './codes';

const sample = '7K2Q9XTRABCDEFGH';

describe('redemption code format', () => {
  it('formats as four groups of four plus the check character', () => {
    expect(formatCode(sample)).toMatch(/^7K2Q-9XTR-ABCD-EFGH-[0-9A-HJKMNP-TV-Z]$/);
  });

  it('reads any case, with or without separators, and Crockford look-alikes', () => {
    const code = formatCode(sample);
    expect(parseCode(code)).toEqual({ ok: true, body: sample });
    expect(parseCode(code.toLowerCase().replace(/-/g, ' '))).toEqual({ ok: true, body: sample });
    const withLookAlikes = formatCode('0000111122223333').replace(/0/g, 'O').replace(/1/g, 'l');
    expect(parseCode(withLookAlikes)).toEqual({ ok: true, body: '0000111122223333' });
  });

  it('catches every single-character typo with the check character', () => {
    const code = sample + checkCharacter(sample);
    for (let i = 0; i < code.length; i += 1) {
      for (const replacement of CODE_ALPHABET) {
        if (replacement === code[i]) continue;
        const typo = code.slice(0, i) + replacement + code.slice(i + 1);
        expect(parseCode(typo).ok, typo).toBe(false);
      }
    }
  });

  it('refuses the wrong length and characters outside the alphabet', () => {
    expect(parseCode('ABC')).toEqual({ ok: false, reason: 'format' });
    expect(parseCode(`${sample}U`)).toEqual({ ok: false, reason: 'format' });
  });
});
