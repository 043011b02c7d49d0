import { useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'react-router';

/** From this width a list of records is a real table; below it each record is a stacked card. */
const TABLE_QUERY = '(min-width: 768px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(TABLE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the screen is wide enough for a table. Only one layout is in the page at a time (not both with one
 * hidden by CSS), so a screen reader, a search in the page and a test each find every value once.
 */
export function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(TABLE_QUERY).matches,
    () => true,
  );
}

export interface Column<Row> {
  key: string;
  /** The column's name; on a phone, the label in front of the value. */
  header: string;
  /** The value; `index` is the row's place in the list (from 0). */
  cell: (row: Row, index: number) => ReactNode;
  /** Numbers line up on the right in the table. */
  align?: 'left' | 'right';
  /**
   * Where the value goes in a phone's card: `amount` and `status` share its first line (the amount large on
   * the left, the status on the right), `title` comes under them, `detail` (the default) is a labelled line,
   * `none` leaves it out (say it elsewhere in the card).
   */
  phone?: 'amount' | 'status' | 'title' | 'detail' | 'none';
  /** Extra classes for the table's cells of this column (e.g. `whitespace-nowrap`). */
  className?: string;
  /** `false` keeps the column out of the table (a phone-only way of saying what other columns say). */
  table?: boolean;
}

/**
 * A list of records that stays readable from 375 px up: a table from 768 px, and below it one card per row
 * with its amount and status first and the rest as labelled lines, so nothing runs off a phone's screen.
 * `rowLink` makes the whole row (or card) open the record, with the link's own name for screen readers.
 */
export function ResponsiveTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowLink,
  rowClassName,
}: {
  /** The table's name (its caption for screen readers; the list's name on a phone). */
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  rowLink?: (row: Row) => { to: string; label: string };
  rowClassName?: (row: Row) => string;
}) {
  const wide = useWideScreen();
  if (wide) {
    const tableColumns = columns.filter((column) => column.table !== false);
    return (
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{label}</caption>
          <thead className="border-y border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              {tableColumns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={`px-3 py-2.5 font-semibold whitespace-nowrap first:pl-5 last:pr-5 ${column.align === 'right' ? 'text-right' : ''}`}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row, rowIndex) => {
              const link = rowLink?.(row);
              return (
                <tr
                  key={rowKey(row)}
                  className={`${link ? 'relative hover:bg-slate-50 focus-within:bg-slate-50' : ''} ${rowClassName?.(row) ?? ''}`}
                >
                  {tableColumns.map((column, index) => (
                    <td
                      key={column.key}
                      className={`px-3 py-3 align-middle text-slate-800 first:pl-5 last:pr-5 ${column.align === 'right' ? 'text-right tabular-nums' : ''} ${column.className ?? ''}`}
                    >
                      {column.cell(row, rowIndex)}
                      {link && index === 0 ? <RowLink to={link.to} label={link.label} /> : null}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }

  const pick = (place: NonNullable<Column<Row>['phone']>) =>
    columns.filter((column) => (column.phone ?? 'detail') === place);
  const amount = pick('amount');
  const status = pick('status');
  const title = pick('title');
  const details = pick('detail');
  return (
    <ul aria-label={label} className="flex flex-col gap-3">
      {rows.map((row, rowIndex) => {
        const link = rowLink?.(row);
        return (
          <li
            key={rowKey(row)}
            className={`relative min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm ${link ? 'hover:border-brand-300 focus-within:border-brand-400' : ''} ${rowClassName?.(row) ?? ''}`}
          >
            {amount.length + status.length > 0 ? (
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0 text-lg font-semibold break-words text-slate-900 tabular-nums">
                  {amount.map((column) => (
                    <div key={column.key}>{column.cell(row, rowIndex)}</div>
                  ))}
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1">
                  {status.map((column) => (
                    <div key={column.key}>{column.cell(row, rowIndex)}</div>
                  ))}
                </div>
              </div>
            ) : null}
            {title.map((column) => (
              <div key={column.key} className="mt-1 min-w-0 font-medium break-words text-slate-900">
                {column.cell(row, rowIndex)}
              </div>
            ))}
            {details.length > 0 ? (
              <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                {details.map((column) => (
                  <div key={column.key} className="contents">
                    <dt className="text-slate-600">{column.header}</dt>
                    <dd className="min-w-0 text-right break-words text-slate-800">
                      {column.cell(row, rowIndex)}
                    </dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {link ? <RowLink to={link.to} label={link.label} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** A link stretched over its row or card (the nearest positioned parent): the whole row opens the record. */
function RowLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      aria-label={label}
      className="absolute inset-0 rounded-[inherit] focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
    />
  );
}
