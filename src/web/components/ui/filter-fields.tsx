import { useId, type ReactNode } from 'react';

const control =
  'mt-1.5 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm outline-none transition focus:border-brand-500 focus:ring-2 focus:ring-brand-200 md:text-sm';

/**
 * "From" and "To" calendar days for a table's filter (both included). A range the wrong way round is said
 * under the fields; the page does not ask the server for it.
 */
export function DateRangeFields({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  const id = useId();
  const wrongWay = Boolean(from && to && from > to);
  return (
    <>
      <div className="min-w-0">
        <label htmlFor={`${id}-from`} className="text-sm font-medium text-slate-700">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          max={to || undefined}
          onChange={(event) => onChange({ from: event.target.value, to })}
          aria-invalid={wrongWay || undefined}
          aria-describedby={wrongWay ? `${id}-error` : undefined}
          className={control}
        />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-to`} className="text-sm font-medium text-slate-700">
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={to}
          min={from || undefined}
          onChange={(event) => onChange({ from, to: event.target.value })}
          aria-invalid={wrongWay || undefined}
          aria-describedby={wrongWay ? `${id}-error` : undefined}
          className={control}
        />
      </div>
      {wrongWay ? (
        <p id={`${id}-error`} role="alert" className="col-span-full text-sm text-red-700">
          The “From” date must be on or before the “To” date.
        </p>
      ) : null}
    </>
  );
}

/** True when the range can be asked for: each day empty or set, and not the wrong way round. */
export function rangeInOrder(from: string, to: string): boolean {
  return !from || !to || from <= to;
}

/** A labelled select for a table's filter; the first option is "all". */
export function SelectField({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={control}>
        {children}
      </select>
    </div>
  );
}

/** A labelled search box for a table's filter. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
  error?: string | null;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-note` : undefined}
        className={control}
      />
      {error ? (
        <p id={`${id}-note`} role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
