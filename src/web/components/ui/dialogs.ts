import type { SweetAlertOptions } from 'sweetalert2';
import { SUCCESS_DIALOG_MS } from '../../lib/constants';
import { buttonClass } from './button';

/**
 * SweetAlert2 dialogs (seed §4, §8), loaded only when a dialog is needed so the landing page stays small.
 * SweetAlert2 renders a real role="dialog" with focus management.
 */
async function swal() {
  const { default: Swal } = await import('sweetalert2');
  closeNativeModals();
  return Swal;
}

/**
 * Every message here follows a native modal <dialog> that its caller has just closed through React state,
 * which closes the element only at React's next commit; the import above can finish first. While that modal
 * is open, everything outside it is inert, SweetAlert2's dialog too: its OK button cannot take the focus,
 * and when the modal closes the focus goes back to the button that opened it, behind the message. So close
 * it now. Its close event tells its owner, as Escape would. No message here is meant to sit over a modal.
 */
function closeNativeModals() {
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog:modal')) dialog.close();
}

/** Icon colours from the product's palette (emerald for done, red for failed, amber for careful). */
export const DIALOG_ICON_COLOURS = { success: '#059669', error: '#dc2626', warning: '#d97706' } as const;

/**
 * The product's look on SweetAlert2's dialogs, so they match <ModalDialog>: a white rounded-2xl panel with
 * a shadow on a slate backdrop, the app's font, a slate title and text, and the product's own buttons
 * (buttonsStyling: false, so SweetAlert2 draws none of its own). Cancel comes first and the action last:
 * in a row from `sm` (centred, under the centred icon and text), stacked with the action on top on a phone,
 * like <DialogActions>.
 *
 * SweetAlert2 injects its stylesheet without a cascade layer, and unlayered rules beat Tailwind's utilities
 * whatever their specificity. So what it styles through its own CSS variables is set through those
 * variables on the element, and the few properties it sets directly take Tailwind's important modifier.
 */
export function dialogTheme(action: 'primary' | 'danger' = 'primary'): SweetAlertOptions {
  return {
    buttonsStyling: false,
    reverseButtons: true,
    customClass: {
      container: '[--swal2-backdrop:rgb(15_23_42/0.5)]',
      popup: [
        'font-sans shadow-xl ring-1 ring-slate-900/5',
        '[--swal2-width:28rem] [--swal2-padding:1.5rem] [--swal2-border-radius:1rem]',
        '[--swal2-background:#fff] [--swal2-color:var(--color-slate-600)]',
        '[--swal2-title-padding:0] [--swal2-html-container-padding:0.5rem_0_0] [--swal2-icon-zoom:0.8]',
        '[--swal2-actions-margin:1.5rem_0_0] [--swal2-actions-width:100%]',
        '[--swal2-timer-progress-bar-background:var(--color-brand-600)]',
        '[--swal2-input-border:1px_solid_var(--color-slate-300)] [--swal2-input-border-radius:0.5rem]',
        '[--swal2-input-focus-border:1px_solid_var(--color-brand-500)]',
        '[--swal2-input-focus-box-shadow:0_0_0_3px_var(--color-brand-200)]',
        '[--swal2-validation-message-background:var(--color-red-50)]',
        '[--swal2-validation-message-color:var(--color-red-800)]',
      ].join(' '),
      title: 'text-xl! font-bold! text-slate-900!',
      htmlContainer: 'text-sm! leading-6! text-slate-600!',
      icon: 'mt-1! mb-4!',
      inputLabel: 'mt-5! text-sm! font-medium! text-slate-700!',
      input: 'mx-0! mt-1.5! w-full! text-base! text-slate-900!',
      validationMessage: 'mt-3! rounded-lg! text-sm! font-medium! before:bg-red-600!',
      actions: 'flex-col-reverse gap-3 sm:flex-row items-stretch! sm:items-center!',
      confirmButton: buttonClass(action),
      cancelButton: buttonClass('secondary'),
      denyButton: buttonClass('secondary'),
    },
  };
}

/** The seed's 1-second success message with a progress bar. Resolves when it closes. */
export async function flashSuccess(title: string, text?: string): Promise<void> {
  const Swal = await swal();
  await Swal.fire({
    ...dialogTheme(),
    icon: 'success',
    iconColor: DIALOG_ICON_COLOURS.success,
    title,
    text,
    timer: SUCCESS_DIALOG_MS,
    timerProgressBar: true,
    showConfirmButton: false,
  });
}

export async function showError(title: string, text: string): Promise<void> {
  const Swal = await swal();
  await Swal.fire({ ...dialogTheme(), icon: 'error', iconColor: DIALOG_ICON_COLOURS.error, title, text });
}

export async function showSuccess(title: string, confirmButtonText = 'OK'): Promise<void> {
  const Swal = await swal();
  await Swal.fire({
    ...dialogTheme(),
    icon: 'success',
    iconColor: DIALOG_ICON_COLOURS.success,
    title,
    position: 'center',
    confirmButtonText,
  });
}

export async function confirmDanger(
  title: string,
  text: string,
  confirmButtonText: string,
): Promise<boolean> {
  const Swal = await swal();
  const result = await Swal.fire({
    ...dialogTheme('danger'),
    icon: 'warning',
    iconColor: DIALOG_ICON_COLOURS.warning,
    title,
    text,
    showCancelButton: true,
    // A dangerous action starts on Cancel, so Enter never does it by accident (as in <ConfirmDialog>).
    focusCancel: true,
    confirmButtonText,
    cancelButtonText: 'Cancel',
  });
  return result.isConfirmed;
}

/**
 * Asks for the 4-digit transaction PIN before a protected change (a real dialog with a labelled password
 * field). Resolves with the PIN, or null when cancelled.
 */
export async function askPin(title: string, text: string, confirmButtonText: string): Promise<string | null> {
  const Swal = await swal();
  const result = await Swal.fire({
    ...dialogTheme(),
    title,
    text,
    input: 'password',
    inputLabel: 'Transaction PIN',
    inputAttributes: {
      maxlength: '4',
      inputmode: 'numeric',
      autocomplete: 'off',
      'aria-label': 'Transaction PIN',
    },
    inputValidator: (value) => (/^\d{4}$/.test(value) ? null : 'please enter your 4-digit transaction PIN'),
    showCancelButton: true,
    confirmButtonText,
    cancelButtonText: 'Cancel',
  });
  return result.isConfirmed ? String(result.value) : null;
}
