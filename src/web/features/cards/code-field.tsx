import { forwardRef, useId, type ChangeEvent, type ReactNode } from 'react';
import { caretAfterFormatting, CODE_PLACEHOLDER, formatCodeInput } from './code-input';

/**
 * The gift card code input: formats as the person types or pastes (XXXX-XXXX-XXXX-XXXX-C; case, spaces
 * and dashes forgiven), keeps the caret where it was, and ties its error to the input.
 */
export const CodeField = forwardRef<
  HTMLInputElement,
  {
    value: string;
    onChange: (value: string) => void;
    label?: string;
    error?: string | null;
    hint?: ReactNode;
    disabled?: boolean;
  }
>(function CodeField({ value, onChange, label = 'Gift card code', error, hint, disabled }, ref) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  function change(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const raw = input.value;
    const caret = input.selectionStart ?? raw.length;
    const formatted = formatCodeInput(raw);
    onChange(formatted);
    const next = caretAfterFormatting(raw, caret, formatted);
    // After React writes the new value, put the caret back after the same character.
    requestAnimationFrame(() => {
      if (document.activeElement === input) input.setSelectionRange(next, next);
    });
  }

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        name="code"
        value={value}
        onChange={change}
        disabled={disabled}
        placeholder={CODE_PLACEHOLDER}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="characters"
        spellCheck={false}
        inputMode="text"
        maxLength={40}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
        className={`w-full min-w-0 rounded-lg border px-3.5 py-2.5 font-mono text-base tracking-wider text-slate-900 uppercase shadow-sm outline-none transition placeholder:tracking-normal placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 disabled:bg-slate-50 sm:text-lg ${
          error ? 'border-red-500' : 'border-slate-300'
        }`}
      />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
});
