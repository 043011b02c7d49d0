import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Gift } from '../../../shared/cards/gifts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Icon, icons } from '../../components/ui/icon';
import { DialogActions, DialogError, ModalDialog } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { purchasedCardKeys } from './api';
import { GiftAddressFields, showGiftErrors, useGiftAddressForm } from './gift-form';
import { recipientLabel } from './gift-status';
import { acceptGift, cancelGift, correctGiftAddress, declineGift, giftKeys } from './gifts-api';
import { forgetGiftToken } from './gift-token';

const EDIT_ICON =
  'M11 5H6a2 2 0 00-2 2v11a2 2 0 002 2h11a2 2 0 002-2v-5m-1.414-9.414a2 2 0 112.828 2.828L11.828 15H9v-2.828l8.586-8.586z';

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
}

/** After a gift changed: it, the lists, and the cards it moved (the sender's, the recipient's) are re-read. */
export function useGiftChanged() {
  const queryClient = useQueryClient();
  return (gift: Gift | undefined, giftId: string) => {
    if (gift) queryClient.setQueryData(giftKeys.one(giftId), gift);
    void queryClient.invalidateQueries({ queryKey: giftKeys.all });
    void queryClient.invalidateQueries({ queryKey: purchasedCardKeys.mine });
  };
}

/**
 * Cancel a gift that has not been accepted (the sender): asks first; the card comes back at once and the
 * link in the recipient's e-mail stops working.
 */
export function CancelGiftButton({
  gift,
  context,
  onCancelled,
}: {
  gift: Gift;
  /** Said after the button's name in a list of gifts ("to Ada (ada@example.com)"). */
  context?: string;
  onCancelled?: (gift: Gift | undefined) => void;
}) {
  const changed = useGiftChanged();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelGift(gift.id),
    onSuccess: (next) => {
      setOpen(false);
      changed(next, gift.id);
      onCancelled?.(next);
    },
  });
  return (
    <>
      <Button
        variant="secondary"
        aria-label={context ? `Cancel gift ${context}` : undefined}
        onClick={() => {
          cancel.reset();
          setOpen(true);
        }}
      >
        <Icon path={icons.close} className="h-4 w-4" />
        Cancel gift
      </Button>
      <ConfirmDialog
        open={open}
        title="Cancel this gift?"
        description={
          gift.status === 'scheduled'
            ? `It will not be sent to ${recipientLabel(gift)}. The card is yours to spend again at once.`
            : `The link sent to ${recipientLabel(gift)} stops working, and the card is yours to spend again at once.`
        }
        confirmLabel="Cancel gift"
        cancelLabel="Keep the gift"
        pendingLabel="Cancelling…"
        variant="danger"
        pending={cancel.isPending}
        error={cancel.isError ? messageOf(cancel.error) : null}
        onConfirm={() => cancel.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The sender corrects a mistyped address: the old link stops working and the new address gets a new one. */
export function CorrectAddressButton({ gift, context }: { gift: Gift; context?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        aria-label={context ? `Correct address ${context}` : undefined}
        onClick={() => setOpen(true)}
      >
        <Icon path={EDIT_ICON} className="h-4 w-4" />
        Correct address
      </Button>
      {open ? <CorrectAddressDialog gift={gift} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function CorrectAddressDialog({ gift, onClose }: { gift: Gift; onClose: () => void }) {
  const changed = useGiftChanged();
  const form = useGiftAddressForm({
    recipient: gift.recipient,
    recipientName: gift.recipientName ?? undefined,
  });
  const [error, setError] = useState<string | null>(null);
  const correct = useMutation({
    mutationFn: (body: Parameters<typeof correctGiftAddress>[1]) => correctGiftAddress(gift.id, body),
    onSuccess: (next) => {
      changed(next, gift.id);
      onClose();
    },
    onError: (err) => {
      if (!showGiftErrors(form, err, ['recipient', 'recipientName'])) setError(messageOf(err));
    },
  });
  const submit = form.handleSubmit((values) => {
    setError(null);
    correct.mutate(values);
  });

  return (
    <ModalDialog
      open
      title="Correct the address"
      description={
        gift.status === 'scheduled'
          ? 'The gift will go to this address when it is sent.'
          : 'We send the gift to this address with a new link; the old link stops working.'
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <GiftAddressFields form={form} />
        <DialogError message={error} />
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={correct.isPending} aria-busy={correct.isPending || undefined}>
            {correct.isPending ? 'Saving…' : 'Save address'}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}

/** The recipient turns a gift down (asks first): the card goes back to its sender. */
export function DeclineGiftButton({
  gift,
  token,
  context,
  onDeclined,
}: {
  gift: Gift;
  token?: string;
  context?: string;
  onDeclined?: (gift: Gift | undefined) => void;
}) {
  const changed = useGiftChanged();
  const [open, setOpen] = useState(false);
  const decline = useMutation({
    mutationFn: () => declineGift(gift.id, token),
    onSuccess: (next) => {
      setOpen(false);
      changed(next, gift.id);
      onDeclined?.(next);
    },
  });
  return (
    <>
      <Button
        variant="secondary"
        aria-label={context ? `Decline gift ${context}` : undefined}
        onClick={() => {
          decline.reset();
          setOpen(true);
        }}
      >
        Decline
      </Button>
      <ConfirmDialog
        open={open}
        title="Decline this gift?"
        description={`The ${gift.card.businessName} gift card goes back to ${gift.senderName}. You cannot accept it afterwards.`}
        confirmLabel="Decline gift"
        cancelLabel="Keep it for now"
        pendingLabel="Declining…"
        variant="danger"
        pending={decline.isPending}
        error={decline.isError ? messageOf(decline.error) : null}
        onConfirm={() => decline.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/**
 * The recipient accepts: the card becomes theirs with a new code, and they go to its page to reveal it.
 * `token` is the link's, for a recipient who came from the e-mail.
 */
export function useAcceptGift(giftId: string, token?: string) {
  const changed = useGiftChanged();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => acceptGift(giftId, token),
    onSuccess: (gift) => {
      changed(gift, giftId);
      forgetGiftToken(giftId);
      navigate(
        gift.purchasedCardId ? `/user-dashboard/mycards/${gift.purchasedCardId}` : '/user-dashboard/mycards',
      );
    },
  });
}
