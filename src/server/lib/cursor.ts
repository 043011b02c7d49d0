import { AppError } from './app-error';

/** Keyset cursors: the last row's full-precision creation time and id, opaque to clients. */
export function encodeCursor(row: { cursorTime: string; id: string }): string {
  return Buffer.from(`${row.cursorTime}|${row.id}`).toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A real instant (not 2023-02-30, 25:61 or year 0), so PostgreSQL's casts cannot fail on a hand-made cursor. */
function isRealTime(time: string): boolean {
  const ms = Date.parse(time);
  return (
    Number.isFinite(ms) &&
    !time.startsWith('0000') &&
    new Date(ms).toISOString().slice(0, 23) === time.slice(0, 23)
  );
}

export function decodeCursor(cursor: string): { time: string; id: string } {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const valid = time && id && CURSOR_TIME.test(time) && isRealTime(time) && CURSOR_ID.test(id);
  if (!valid) throw invalidCursor();
  return { time, id };
}

/**
 * Keyset cursors over the ledger's own order (a posting's transaction, then its id): the last line's xid8 and
 * id, opaque to clients. A transaction id is a 64-bit number; anything longer or larger is refused here, so
 * PostgreSQL's cast cannot fail on a hand-made cursor.
 */
export function encodeLedgerCursor(row: { xact: string; id: string }): string {
  return Buffer.from(`x${row.xact}|${row.id}`).toString('base64url');
}

const CURSOR_XACT = /^x(\d{1,20})$/;
const XID8_MAX = 2n ** 64n - 1n;

export function decodeLedgerCursor(cursor: string): { xact: string; id: string } {
  const [xact, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const digits = xact ? CURSOR_XACT.exec(xact)?.[1] : undefined;
  if (!digits || BigInt(digits) > XID8_MAX || !id || !CURSOR_ID.test(id)) throw invalidCursor();
  return { xact: BigInt(digits).toString(), id };
}

function invalidCursor(): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    'That page cursor is not valid. Start again from the first page.',
    {
      details: { fieldErrors: { cursor: ['not a cursor this API gave out'] } },
    },
  );
}
