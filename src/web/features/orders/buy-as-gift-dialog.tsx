import type { GiftRequest } from '../../../shared/cards/gifts';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { DialogActions, ModalDialog } from '../../components/ui/modal-dialog';
import { GiftFields, type GiftForm } from '../cards/gift-form';

/**
 * "Buy as a gift": who it is for, with the same fields as sending a held card; then the same checkout.
 * Once the payment is confirmed the card goes straight into the gift (or waits for its delivery time).
 * The form lives with the page, so a gift typed and then left (Cancel, or back from the checkout) is kept.
 */
export function BuyAsGiftDialog({
  card,
  form,
  busy,
  onBuy,
  onClose,
}: {
  card: GiftCard;
  form: GiftForm;
  busy: boolean;
  onBuy: (gift: GiftRequest) => void;
  onClose: () => void;
}) {
  const deliverAt = form.watch('deliverAt');
  const submit = form.handleSubmit((gift) => {
    if (!busy) onBuy(gift);
  });
  return (
    <ModalDialog
      open
      title="Buy as a gift"
      description={
        <>
          A {card.businessName} gift card of{' '}
          <strong className="font-semibold text-slate-900">{formatMoney(card.amount)}</strong>. You pay on the
          secure checkout page; once the payment is confirmed, we {deliverAt ? 'schedule' : 'send'} the gift.
        </>
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        <GiftFields form={form} />
        <DialogActions>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={busy || undefined}>
            {busy ? (
              <>
                <span
                  aria-hidden="true"
                  className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
                />
                Taking you to checkout…
              </>
            ) : (
              <>
                <Icon path={icons.gift} className="h-4 w-4" />
                Continue to payment
              </>
            )}
          </Button>
        </DialogActions>
      </form>
    </ModalDialog>
  );
}
