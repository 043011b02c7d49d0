import { stdSerializers, type SerializedError } from 'pino';

/**
 * What never reaches a log line. Database errors carry the query's parameters (drizzle's DrizzleQueryError
 * has them in `params` and in its message, PostgreSQL's `detail` repeats the offending value): one log line
 * held an argon2 hash, an e-mail address and a phone number (issue 12). The SQL itself only has placeholders
 * ($1, $2), so it stays for debugging.
 */
const REDACTED = '[redacted]';

/** Fields of a logged object, at the top or one or two levels down, that hold secrets or personal data. */
const SECRET_FIELDS = [
  'password',
  'confirmPassword',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'pin',
  'currentPin',
  'newPin',
  'token',
  'email',
  'phone',
  'phoneNumber',
  'accountNumber',
];

export const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...['err', 'err.cause', 'error', 'error.cause'].flatMap((e) => [
    `${e}.params`,
    `${e}.parameters`,
    `${e}.detail`,
  ]),
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  // Not `*.code`: that would hide err.code (the SQLSTATE or Fastify code), which a reader needs.
  'code',
  'body.code',
  'input.code',
  'req.body.code',
];

/** The parameter values of an error and its causes, as they would appear in its message. */
function parametersOf(error: unknown, seen = new Set<unknown>()): { list: string; values: string[] }[] {
  if (typeof error !== 'object' || error === null || seen.has(error)) return [];
  seen.add(error);
  const own: { list: string; values: string[] }[] = [];
  for (const key of ['params', 'parameters'] as const) {
    const params = (error as Record<string, unknown>)[key];
    if (Array.isArray(params)) {
      own.push({ list: String(params), values: params.map((p) => String(p)).filter((p) => p.length >= 3) });
    }
  }
  return [...own, ...parametersOf((error as { cause?: unknown }).cause, seen)];
}

function scrub(text: string, parameters: { list: string; values: string[] }[]): string {
  let out = text;
  for (const { list } of parameters) if (list) out = out.split(`params: ${list}`).join(`params: ${REDACTED}`);
  for (const { values } of parameters) for (const value of values) out = out.split(value).join(REDACTED);
  return out;
}

/** pino's error serializer, with every query parameter taken out of the message, the stack and the fields. */
export function serializeError(error: Error): SerializedError {
  const serialized = stdSerializers.err(error);
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  const parameters = parametersOf(error);
  for (const key of ['params', 'parameters', 'detail']) if (key in serialized) serialized[key] = REDACTED;
  if (parameters.length === 0) return serialized;
  for (const key of ['message', 'stack'] as const) {
    if (typeof serialized[key] === 'string') serialized[key] = scrub(serialized[key], parameters);
  }
  return serialized;
}
