import { z } from 'zod';

/**
 * C0 control characters and DEL: never part of typed text, and PostgreSQL cannot store NUL in `text` (it
 * answers "invalid byte sequence", which used to surface as a 500). One rule and one message for every
 * field that reaches the database.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const CONTROL_CHARACTERS_MESSAGE = 'Remove the special (control) characters.';

export const hasControlCharacters = (value: string) => CONTROL_CHARACTERS.test(value);

/**
 * A string without control characters. The check runs first and aborts, so a NUL is reported as such
 * rather than as "too long" or "not an e-mail address"; chain `.trim()`, `.min()`, `.max()` etc. after it.
 */
export const safeText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((value) => !hasControlCharacters(value), {
    message: CONTROL_CHARACTERS_MESSAGE,
    abort: true,
  });
