/**
 * What someone typed into a pre-rendered form before the app took over (issue 14: the forms' HTML is there
 * before their code), carried into the form React draws over it: each named field's value or tick, and
 * which field had the focus, with its caret.
 */
export interface TypedFields {
  values: { name: string; value: string; checked: boolean; box: boolean }[];
  focused: { name: string; start: number | null; end: number | null } | null;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const fieldsOf = (root: HTMLElement) =>
  Array.from(root.querySelectorAll<Field>('input[name], textarea[name], select[name]'));

const isBox = (field: Field) =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

/** Reads the fields that differ from what the page was built with. */
export function readTypedFields(root: HTMLElement): TypedFields {
  const values = fieldsOf(root).flatMap((field) => {
    const box = isBox(field);
    const input = field as HTMLInputElement;
    const changed = box ? input.checked !== input.defaultChecked : field.value !== defaultValueOf(field);
    return changed ? [{ name: field.name, value: field.value, checked: box && input.checked, box }] : [];
  });
  const active = fieldsOf(root).find((field) => field === document.activeElement);
  const caret = active && !(active instanceof HTMLSelectElement) ? active : null;
  const focused = active
    ? { name: active.name, start: caret?.selectionStart ?? null, end: caret?.selectionEnd ?? null }
    : null;
  return { values, focused };
}

/** What watchTypedFields has seen: the typing, as it stood when the page it watched was taken away. */
export interface TypedFieldsWatch {
  /** Stops watching (again: nothing more) and says what was typed, as it stood before the page went. */
  stop(): TypedFields;
}

/**
 * Keeps up with what is typed into the pre-rendered page under `root` while the app draws its own page in
 * the background (a transition, main.tsx), so what is typed until the moment React puts its page in place is
 * carried over, not only what was typed before it started. React takes the pre-rendered page away at the
 * start of its commit and `stop` is called at the end of that commit; in between, the browser takes the
 * focus from the field that had it and fires its `focusout` and `change` there and then, which are React's
 * doing, not the visitor's. So each event is read once the code that was running when it came has finished
 * (a microtask): the visitor's own with the page still there, those of the commit after `stop`, when nothing
 * more is read.
 */
export function watchTypedFields(root: HTMLElement): TypedFieldsWatch {
  let typed = readTypedFields(root);
  let stopped = false;
  const readSoon = () =>
    queueMicrotask(() => {
      if (!stopped) typed = readTypedFields(root);
    });
  const events = ['input', 'change', 'focusin', 'focusout', 'keyup', 'pointerup', 'select'] as const;
  for (const type of events) root.addEventListener(type, readSoon, true);
  return {
    stop() {
      if (!stopped) {
        stopped = true;
        for (const type of events) root.removeEventListener(type, readSoon, true);
      }
      return typed;
    },
  };
}

/**
 * Puts the typed values into the fields now under `root`, through the events a person's typing fires, so the
 * form's own state (react-hook-form's, React's) takes them as typed; then gives the focus back.
 */
export function restoreTypedFields(root: HTMLElement, typed: TypedFields): void {
  for (const { name, value, checked, box } of typed.values) {
    for (const field of fieldsOf(root).filter((candidate) => candidate.name === name)) {
      if (box) {
        const input = field as HTMLInputElement;
        if (input.value === value && input.checked !== checked) input.click();
      } else if (field.value !== value) {
        const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set;
        setter?.call(field, value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        field.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }
  }
  if (!typed.focused) return;
  const { name, start, end } = typed.focused;
  const field = fieldsOf(root).find((candidate) => candidate.name === name);
  field?.focus();
  // A field without a caret (email, number) reads null: the focus is enough.
  if (field && !(field instanceof HTMLSelectElement) && start !== null && end !== null) {
    field.setSelectionRange(start, end);
  }
}

function defaultValueOf(field: Field): string {
  if (field instanceof HTMLSelectElement) {
    return (
      (Array.from(field.options).find((option) => option.defaultSelected) ?? field.options[0])?.value ?? ''
    );
  }
  return field.defaultValue;
}
