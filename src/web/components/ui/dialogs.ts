import { SUCCESS_DIALOG_MS } from '../../lib/constants';

/**
 * SweetAlert2 dialogs (seed §4, §8), loaded only when a dialog is needed so the landing page stays small.
 * SweetAlert2 renders a real role="dialog" with focus management.
 */
async function swal() {
  const { default: Swal } = await import('sweetalert2');
  return Swal;
}

/** The seed's 1-second success message with a progress bar. Resolves when it closes. */
export async function flashSuccess(title: string, text?: string): Promise<void> {
  const Swal = await swal();
  await Swal.fire({
    icon: 'success',
    title,
    text,
    timer: SUCCESS_DIALOG_MS,
    timerProgressBar: true,
    showConfirmButton: false,
  });
}

export async function showError(title: string, text: string): Promise<void> {
  const Swal = await swal();
  await Swal.fire({ icon: 'error', title, text, confirmButtonColor: '#4f46e5' });
}

export async function showSuccess(title: string, confirmButtonText = 'OK'): Promise<void> {
  const Swal = await swal();
  await Swal.fire({
    icon: 'success',
    title,
    position: 'center',
    confirmButtonText,
    confirmButtonColor: '#4f46e5',
  });
}

export async function confirmDanger(
  title: string,
  text: string,
  confirmButtonText: string,
): Promise<boolean> {
  const Swal = await swal();
  const result = await Swal.fire({
    icon: 'warning',
    title,
    text,
    showCancelButton: true,
    confirmButtonText,
    confirmButtonColor: '#dc2626',
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
    confirmButtonColor: '#4f46e5',
    cancelButtonText: 'Cancel',
  });
  return result.isConfirmed ? String(result.value) : null;
}
