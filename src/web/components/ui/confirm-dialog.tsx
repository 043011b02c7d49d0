import type { ReactNode } from 'react';
import { Button } from './button';
import { DialogActions, DialogError, ModalDialog } from './modal-dialog';

/**
 * "Are you sure?" as a real modal (native <dialog>): what will happen, optional extra fields, the answer's
 * error in words, and Cancel / the action. The caller runs the action and says when it is pending; a
 * dangerous action starts on Cancel, so Enter never does it by accident.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  pendingLabel,
  variant = 'primary',
  pending = false,
  error,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  /** The button that leaves things as they are ("Cancel"; say "Keep the gift" when the action is a cancel). */
  cancelLabel?: string;
  pendingLabel?: string;
  variant?: 'primary' | 'danger';
  pending?: boolean;
  /** The API's message when the last try failed. */
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <ModalDialog open={open} title={title} description={description} onClose={onClose}>
      {children}
      <DialogError message={error} className={children ? 'mt-4' : ''} />
      <DialogActions className={children || error ? 'mt-6' : ''}>
        <Button
          variant="secondary"
          onClick={onClose}
          data-autofocus={variant === 'danger' ? true : undefined}
        >
          {cancelLabel}
        </Button>
        <Button
          variant={variant}
          onClick={onConfirm}
          disabled={pending}
          aria-busy={pending || undefined}
          data-autofocus={variant === 'danger' ? undefined : true}
        >
          {pending ? (pendingLabel ?? `${confirmLabel}…`) : confirmLabel}
        </Button>
      </DialogActions>
    </ModalDialog>
  );
}
