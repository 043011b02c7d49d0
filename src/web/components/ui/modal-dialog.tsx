import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A real modal: the native <dialog> opened with showModal(), so the browser traps focus, makes the page
 * behind it inert and closes it on Escape. `onClose` runs however it closes (Escape, the close button).
 */
export function ModalDialog({
  open,
  title,
  description,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // Start in the first field rather than on the close button.
      dialog.querySelector<HTMLElement>('input:not([type=hidden]), [data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      // A click on the backdrop (the dialog element itself, outside its panel) closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open ? (
        <div className="p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-bold text-slate-900">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              aria-label="Close"
              className="-m-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <svg
                viewBox="0 0 24 24"
                aria-hidden="true"
                className="h-5 w-5"
                fill="none"
                stroke="currentColor"
                strokeWidth={2}
              >
                <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          {description ? (
            <div id={descriptionId} className="mt-1 text-sm text-slate-600">
              {description}
            </div>
          ) : null}
          <div className="mt-5">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}

/** The API's message when a dialog's last try failed, in words, announced to screen readers. */
export function DialogError({ message, className = '' }: { message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`rounded-lg border border-red-200 bg-red-50 px-3.5 py-2.5 text-sm text-red-800 ${className}`}
    >
      {message}
    </p>
  );
}

/** A dialog's buttons: stacked (the action on top) on a phone, in a row on the right from `sm`. */
export function DialogActions({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div className={`flex flex-col-reverse gap-3 sm:flex-row sm:justify-end ${className}`}>{children}</div>
  );
}
