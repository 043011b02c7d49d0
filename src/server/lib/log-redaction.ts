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

/** Where secrets sit in a logged object: dotted keys from its top, `*` for any key (see `pathTree`). */
const logRedactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers.set-cookie',
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

/**
 * The paths as a tree: each key's subtree, or null where the key's value is censored. `*` stands for any key
 * (an array's index too); a named key's subtree already holds its level's `*` subtree, so the walk looks up
 * one key and falls back to `*`.
 */
type PathTree = Map<string, PathTree | null>;

function pathTree(paths: readonly string[]): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    const parts = path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node.set(part, null);
        return;
      }
      let next = node.get(part);
      if (next === null) return; // the whole value is censored already
      if (next === undefined) node.set(part, (next = new Map()));
      node = next;
    });
  }
  return withWildcards(root);
}

/** Both subtrees' paths in one; null (censored) wins. */
function merged(a: PathTree | null, b: PathTree | null | undefined): PathTree | null {
  if (a === null || b === null) return null;
  if (b === undefined) return a;
  const tree: PathTree = new Map(a);
  for (const [key, sub] of b) tree.set(key, tree.has(key) ? merged(tree.get(key)!, sub) : sub);
  return tree;
}

function withWildcards(tree: PathTree): PathTree {
  const any = tree.get('*');
  const out: PathTree = new Map();
  for (const [key, sub] of tree) {
    const full = key === '*' ? sub : merged(sub, any);
    out.set(key, full === null ? null : withWildcards(full));
  }
  return out;
}

const LOG_PATHS = pathTree(logRedactPaths);

/** Plain data a log call hands over, walked for secrets; other objects are left to a serializer or toJSON. */
function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with every key the tree censors set to `[redacted]`, copied where it changes: the caller's objects
 * are never written to. Only the levels the tree has are read, so a log object costs a few look-ups.
 */
function redactedWith(value: Record<string, unknown>, tree: PathTree): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  const any = tree.get('*');
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const rule = tree.has(key) ? tree.get(key) : any;
    if (rule === undefined) continue;
    const current = value[key];
    let next: unknown = REDACTED;
    if (rule !== null) next = isPlainData(current) ? redactedWith(current, rule) : current;
    if (next === current) continue;
    out ??= Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...value };
    out[key] = next;
  }
  return out ?? value;
}

/**
 * pino's `formatters.log`: the logged object with its secrets censored (`logRedactPaths`). It replaces pino's
 * `redact` option, whose library walked every top-level key through all 58 paths, parsed anew on each line:
 * at the default level (info, two lines a request) that halved the cached catalogue's requests a second
 * (issue 14, ADR 046). Plain objects and arrays are walked. Other objects are left to their serializer:
 * Fastify's `req` and `res` write fixed fields that hold no secret, and `serializeError` censors an error
 * with the same paths, the one under `err` when pino serializes it, one under any other key here.
 */
export function redactLogObject(object: Record<string, unknown>): Record<string, unknown> {
  let withErrors = object;
  for (const key in object) {
    const value = object[key];
    if (key === 'err' || !(value instanceof Error) || !Object.prototype.hasOwnProperty.call(object, key))
      continue;
    if (withErrors === object) withErrors = { ...object };
    withErrors[key] = serializeError(value);
  }
  return redactedWith(withErrors, LOG_PATHS);
}

/**
 * The logger's options that keep secrets out of every line: `formatters.log` and the error serializer. A
 * request's logger censors its bindings itself (`lazyChildLogger`).
 */
export const logRedaction = {
  formatters: { log: redactLogObject },
  serializers: { err: serializeError },
};

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
  // In place: pino made this object for this line (its fields still point at the error's own values, which
  // `redactedWith` copies before it censors below them).
  const fields = serialized as unknown as Record<string, unknown>;
  const censored = redactedWith(fields, LOG_PATHS.get('err')!);
  if (censored !== fields) Object.assign(fields, censored);
  if (parameters.length === 0) return serialized;
  for (const key of ['message', 'stack'] as const) {
    if (typeof serialized[key] === 'string') serialized[key] = scrub(serialized[key], parameters);
  }
  return serialized;
}
