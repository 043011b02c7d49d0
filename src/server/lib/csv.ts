import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { toDecimalString, type Money } from '../../shared/money';

/**
 * CSV exports streamed from the database with constant memory: the rows come a keyset page at a time (the
 * next page is read only when the client has taken the last one), each turned into a line as it goes.
 * No CSV library: RFC 4180 quoting is a few lines, and the formula guard needs to know which cells are ours.
 */

/** An amount we wrote ("12500.00", "-300.00"): never prefixed by the formula guard. */
export interface CsvNumber {
  readonly csvNumber: string;
}
export type CsvCell = string | number | boolean | null | undefined | CsvNumber;

export const csvAmount = (money: Money): CsvNumber => ({ csvNumber: toDecimalString(money) });

/** A spreadsheet runs a cell starting with = + - @ (or a tab / carriage return) as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return value.csvNumber;
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly CsvCell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Keyset pages, one after another, until a short page: `fetch` is given the last row of the page before. */
export async function* keysetPages<T>(
  fetch: (last: T | undefined, size: number) => Promise<T[]>,
  size = 1000,
): AsyncGenerator<T[]> {
  let last: T | undefined;
  for (;;) {
    const page = await fetch(last, size);
    if (page.length > 0) yield page;
    if (page.length < size) return;
    last = page.at(-1);
  }
}

/** The header line, then a line per row, as a stream that pulls the next page only when it is read. */
export function csvStream<T>(
  header: readonly string[],
  pages: AsyncIterable<T[]>,
  toCells: (row: T) => readonly CsvCell[],
): Readable {
  async function* lines() {
    yield csvLine(header);
    for await (const page of pages) {
      yield page.map((row) => csvLine(toCells(row))).join('');
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** Sends a CSV download; the filename is made of our own safe characters only. */
export function sendCsv(reply: FastifyReply, filename: string, body: Readable) {
  const safeName = filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${safeName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
