import { describe, expect, it } from 'vitest';
import { formatCode } from '../../../shared/cards/codes';
import { redeemMessages } from '../../../shared/cards/schemas';
import { caretAfterFormatting, codeProblem, codeTooShort, formatCodeInput } from './code-input';

const code = formatCode('7K2Q9XTRABCD1234');

describe('the code field', () => {
  it('formats as it is typed or pasted: case, spaces and dashes forgiven, look-alikes read as digits', () => {
    expect(formatCodeInput('7k2q')).toBe('7K2Q');
    expect(formatCodeInput('7k2q9')).toBe('7K2Q-9');
    expect(formatCodeInput(code.toLowerCase().replace(/-/g, ' '))).toBe(code);
    expect(formatCodeInput(`  ${code.replace(/-/g, '')}  `)).toBe(code);
    expect(formatCodeInput('ILOo')).toBe('1100');
    expect(formatCodeInput(`${code}XYZ`)).toBe(code);
  });

  it('keeps the caret after the same character when an edit lands mid-code', () => {
    const raw = '7K2QX9XTR';
    const formatted = formatCodeInput(raw);
    expect(formatted).toBe('7K2Q-X9XT-R');
    // The caret was after the inserted X (5 characters in): it stays after it, past the dash.
    expect(caretAfterFormatting(raw, 5, formatted)).toBe(6);
    expect(caretAfterFormatting(raw, 0, formatted)).toBe(0);
  });

  it('catches a typo with the check character before any look-up', () => {
    expect(codeProblem(code)).toBeNull();
    expect(codeProblem('')).toBe(redeemMessages.codeRequired);
    expect(codeProblem('7K2Q-9XTR')).toBe(codeTooShort);
    const typo = code.slice(0, 2) + (code[2] === 'A' ? 'B' : 'A') + code.slice(3);
    expect(codeProblem(typo)).toBe(redeemMessages.typo);
  });
});
