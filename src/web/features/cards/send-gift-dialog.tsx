import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { GiftRequest } from '../../../shared/cards/gifts';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { DialogActions, DialogError, ModalDialog } from '../../components/ui/modal-dialog';
import { ApiError } from '../../lib/api';
import { purchasedCardKeys, type PurchasedCardDetail } from './api';
import { formatDateTime } from './format';
import { GiftFields, showGiftErrors, useGiftForm } from './gift-form';
import { recipientLabel } from './gift-status';
import { giftKeys, sendGift } from './gifts-api';

/**
 * "Send as a gift" on a card its holder can spend (active, something left on it): a real dialog with the
 * gift's fields. Once sent, the card waits for its recipient (gift_pending) and the page shows the gift.
 */
export function SendGiftControl({ card }: { card: PurchasedCardDetail }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState('');
  if (card.status !== 'active' || card.balance.amount <= 0) return null;
  return (
    <div className="mt-5 flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <p className="text-sm text-slate-600">
        Give what is left on it to someone else. They get it with a new code of their own.
      </p>
      <Button
        onClick={() => {
          setDone('');
          setOpen(true);
        }}
        className="shrink-0"
      >
        <Icon path={icons.gift} className="h-4 w-4" />
        Send as a gift
      </Button>
      <p role="status" aria-live="polite" className="sr-only">
        {done}
      </p>
      {open ? (
        <SendGiftDialog
          card={card}
          onClose={() => setOpen(false)}
          onSent={(message) => {
            setOpen(false);
            setDone(message);
          }}
        />
      ) : null}
    </div>
  );
}

function SendGiftDialog({
  card,
  onClose,
  onSent,
}: {
  card: PurchasedCardDetail;
  onClose: () => void;
  onSent: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const form = useGiftForm();
  const [error, setError] = useState<string | null>(null);
  const deliverAt = form.watch('deliverAt');

  const send = useMutation({
    mutationFn: (body: GiftRequest) => sendGift(card.id, body),
    onSuccess: (gift) => {
      queryClient.setQueryData(giftKeys.one(gift.id), gift);
      queryClient.setQueryData(giftKeys.pendingOnCard(card.id), gift);
      void queryClient.invalidateQueries({ queryKey: giftKeys.all });
      void queryClient.invalidateQueries({ queryKey: purchasedCardKeys.mine });
      onSent(
        gift.status === 'scheduled' && gift.deliverAt
          ? `Gift scheduled: it goes to ${recipientLabel(gift)} on ${formatDateTime(gift.deliverAt)}.`
          : `Gift sent to ${recipientLabel(gift)}.`,
      );
    },
    onError: (err) => {
      if (showGiftErrors(form, err)) return setError(null);
      setError(err instanceof ApiError ? err.message : 'The gift could not be sent. Please try again.');
    },
  });

  const submit = form.handleSubmit((values) => {
    setError(null);
    send.mutate(values);
  });

  return (
    <ModalDialog
      open
      title="Send as a gift"
      description={
        <>
          Your {card.businessName} gift card, with{' '}
          <strong className="font-semibold text-slate-900">{formatMoney(card.balance)}</strong> on it. They
          get a link to accept it; until they do, you cannot spend it, and you can cancel the gift.
        </>
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <GiftFields form={form} />
        <DialogError message={error} />
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={send.isPending} aria-busy={send.isPending || undefined}>
            <Icon path={icons.gift} className="h-4 w-4" />
            {send.isPending ? 'Sending…' : deliverAt ? 'Schedule gift' : 'Send gift'}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
