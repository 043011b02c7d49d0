import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { majorAmountSchema } from '../../../shared/catalogue/schemas';
import { redeemMessages, REFERENCE_MAX_LENGTH, type SoldCard } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { shortMaskedCode } from './format';
import { redeem, soldCardKeys, type RedeemInput } from './till-api';

/** "the amount can be at most …" → "The amount can be at most …" */
function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

type Pending = { amount: number; all: boolean };

/**
 * The till's second step, once a code is looked up: an amount in naira (or Redeem all) and an optional
 * till reference, a confirm dialog that says what will be taken and what stays, then the receipt.
 * Each confirm click sends one Idempotency-Key; a retry of the same request after a lost answer reuses it,
 * so a redemption is never taken twice.
 */
export function RedeemForm({ card, code }: { card: SoldCard; code: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [amountText, setAmountText] = useState('');
  const [reference, setReference] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ key: string; body: string } | null>(null);
  const currency = card.balance.currency;

  const mutation = useMutation({
    mutationFn: (body: RedeemInput) => {
      const signature = JSON.stringify(body);
      if (attempt.current?.body !== signature) {
        attempt.current = { key: crypto.randomUUID(), body: signature };
      }
      return redeem(body, attempt.current.key);
    },
    onSuccess: (redemption) => {
      attempt.current = null;
      queryClient.setQueryData(soldCardKeys.redemption(redemption.id), redemption);
      void queryClient.invalidateQueries({ queryKey: soldCardKeys.all });
      navigate(`/dashboard/redeem/receipts/${redemption.id}`);
    },
    onError: (err) => {
      // A refusal is final for that request; only a lost answer (network, server error) is retried as is.
      if (err instanceof ApiError && err.status > 0 && err.status < 500) attempt.current = null;
      setError(err instanceof ApiError ? err.message : 'The card could not be redeemed. Please try again.');
      // The card may have changed (frozen, blocked, spent elsewhere): show it as it is now.
      if (err instanceof ApiError && err.status === 409) {
        void queryClient.invalidateQueries({ queryKey: soldCardKeys.one(card.id) });
      }
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (amountText.trim() === '') {
      setAmountError(redeemMessages.amountRequired);
      return;
    }
    const parsed = majorAmountSchema(currency, card.balance.amount).safeParse(amountText);
    if (!parsed.success) {
      setAmountError(sentence(parsed.error.issues[0]?.message ?? 'Enter an amount like 2500 or 2500.50.'));
      return;
    }
    setAmountError(null);
    confirm({ amount: parsed.data, all: false });
  }

  function confirm(next: Pending) {
    setError(null);
    mutation.reset();
    setPending(next);
  }

  function send() {
    if (!pending) return;
    const ref = reference.trim();
    mutation.mutate({
      code,
      ...(pending.all ? { all: true as const } : { amount: pending.amount }),
      ...(ref ? { reference: ref } : {}),
    });
  }

  const take = pending ? { amount: pending.amount, currency } : null;
  const left = pending ? { amount: card.balance.amount - pending.amount, currency } : null;

  return (
    <section
      aria-labelledby="redeem-title"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="redeem-title" className="text-base font-semibold text-slate-900">
        Take payment from this card
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Enter what the customer is paying with the card, or redeem the whole balance. What is left stays on
        the card for next time.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 flex flex-col gap-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Amount (₦)"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 2500"
            value={amountText}
            onChange={(event) => {
              setAmountText(event.target.value);
              setAmountError(null);
            }}
            hint={`Up to ${formatMoney(card.balance)}, the card’s balance.`}
            error={amountError ?? undefined}
          />
          <TextField
            label="Till reference or note (optional)"
            autoComplete="off"
            maxLength={REFERENCE_MAX_LENGTH}
            placeholder="e.g. Receipt 0042"
            value={reference}
            onChange={(event) => setReference(event.target.value)}
            hint="Shown on the receipt and in the holder’s history."
          />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit">Redeem amount</Button>
          <Button variant="secondary" onClick={() => confirm({ amount: card.balance.amount, all: true })}>
            Redeem all ({formatMoney(card.balance)})
          </Button>
        </div>
      </form>

      <ConfirmDialog
        open={pending !== null}
        title={take ? `Redeem ${formatMoney(take)}?` : 'Redeem?'}
        description={
          pending?.all
            ? 'This takes the whole balance: nothing stays on the card.'
            : `From the card ending ${card.codeLast4}. The rest stays on the card.`
        }
        confirmLabel={take ? `Redeem ${formatMoney(take)}` : 'Redeem'}
        pendingLabel="Redeeming…"
        pending={mutation.isPending}
        error={error}
        onConfirm={send}
        onClose={() => setPending(null)}
      >
        {take && left ? (
          <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 text-sm">
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-600">Card</dt>
              <dd className="font-mono font-semibold text-slate-900">{shortMaskedCode(card.codeLast4)}</dd>
            </div>
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-600">Amount to take</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">{formatMoney(take)}</dd>
            </div>
            <div className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-600">Balance left</dt>
              <dd className="font-semibold text-slate-900 tabular-nums">{formatMoney(left)}</dd>
            </div>
            {reference.trim() ? (
              <div className="flex justify-between gap-4 px-4 py-2.5">
                <dt className="text-slate-600">Reference</dt>
                <dd className="min-w-0 text-right break-words text-slate-900">{reference.trim()}</dd>
              </div>
            ) : null}
          </dl>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
