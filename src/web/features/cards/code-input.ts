import { redeemMessages } from '../../../shared/cards/schemas';
import { CODE_BODY_LENGTH, parseCode } from '../../../shared/cards/codes';

/** A code has 16 characters and one check character: XXXX-XXXX-XXXX-XXXX-C. */
export const CODE_LENGTH = CODE_BODY_LENGTH + 1;
export const CODE_PLACEHOLDER = 'XXXX-XXXX-XXXX-XXXX-X';
export const codeTooShort =
  'That code is too short: a code looks like XXXX-XXXX-XXXX-XXXX-X (17 characters).';

/** The characters that count, as parseCode reads them: upper case, Crockford's look-alikes mapped. */
function significant(text: string): string {
  return text
    .toUpperCase()
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0')
    .replace(/[^0-9A-Z]/g, '');
}

/** Formats what the cashier typed or pasted as XXXX-XXXX-XXXX-XXXX-C (as far as it goes). */
export function formatCodeInput(text: string): string {
  const chars = significant(text).slice(0, CODE_LENGTH);
  const groups = chars.slice(0, CODE_BODY_LENGTH).match(/.{1,4}/g) ?? [];
  const check = chars.slice(CODE_BODY_LENGTH);
  return [...groups, ...(check ? [check] : [])].join('-');
}

/**
 * Where the caret goes after formatting: after as many significant characters as were before it in the
 * raw text, so an edit in the middle of the code does not throw the caret to the end.
 */
export function caretAfterFormatting(raw: string, caret: number, formatted: string): number {
  const before = significant(raw.slice(0, caret)).length;
  if (before === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (formatted[i] !== '-') seen += 1;
    if (seen === before) return i + 1;
  }
  return formatted.length;
}

/**
 * Checks a code before anything is sent: the message to show, or null when the check character agrees.
 * A mistyped character is caught here, so no look-up is spent on it.
 */
export function codeProblem(text: string): string | null {
  if (text.trim() === '') return redeemMessages.codeRequired;
  const parsed = parseCode(text);
  if (parsed.ok) return null;
  return significant(text).length < CODE_LENGTH ? codeTooShort : redeemMessages.typo;
}

/** Whether the code is complete (17 characters), so a typo can be shown as soon as it is typed. */
export function isComplete(text: string): boolean {
  return significant(text).length >= CODE_LENGTH;
}
