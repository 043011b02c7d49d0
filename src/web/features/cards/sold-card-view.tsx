import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { SoldCard } from '../../../shared/cards/schemas';
import { REFERENCE_MAX_LENGTH } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/form-field';
import { Icon, icons } from '../../components/ui/icon';
import { ApiError } from '../../lib/api';
import { LargeTile } from '../catalogue/large-tile';
import { ActivityRow } from './activity-row';
import { formatDate, shortMaskedCode } from './format';
import { StatusBadge } from './status-badge';
import { blockCard, refundCard, soldCardKeys, unblockCard } from './till-api';
import { ExpiryDate } from './expiry-date';

/** Why a card the business looks at cannot be redeemed now, in the cashier's words. */
export function tillNote(card: SoldCard): string | null {
  switch (card.status) {
    case 'active':
      return null;
    case 'frozen':
      return 'The holder froze this card. It cannot be redeemed until they unfreeze it in Giftmart.';
    case 'blocked':
      return 'You blocked this card. Unblock it if it was found, then redeem it.';
    case 'expired':
      return card.expiresAt
        ? `This card expired on ${formatDate(card.expiresAt)} and can no longer be redeemed.`
        : 'This card has expired and can no longer be redeemed.';
    case 'redeemed':
      return 'This card has been used up: nothing is left on it.';
    case 'void':
      return 'This card was refunded to the buyer. Its code no longer works.';
    case 'gift_pending':
      return 'This card is being sent as a gift. It cannot be redeemed until the recipient accepts it (with a new code) or it returns to the sender.';
  }
}

/** The card as its business sees it: design, value, balance, status, expiry and when it was sold. */
export function SoldCardSummary({ card }: { card: SoldCard }) {
  const note = tillNote(card);
  return (
    <div className="flex flex-col items-center gap-6 lg:flex-row lg:items-start">
      <LargeTile
        card={{
          businessName: card.businessName,
          brandLogoUrl: card.brandLogoUrl,
          amount: card.balance,
          colour: card.colour,
          uniqueId: card.uniqueId,
        }}
      />
      <section
        aria-labelledby={`sold-card-${card.id}`}
        className="w-full min-w-0 flex-1 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <h2 id={`sold-card-${card.id}`} className="text-sm font-medium text-slate-600">
          Balance
        </h2>
        <p className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span
            className="text-4xl font-extrabold tracking-tight text-slate-900 tabular-nums"
            data-testid="card-balance"
          >
            {formatMoney(card.balance)}
          </span>
          <span className="text-slate-600">
            of{' '}
            <span className="font-semibold text-slate-800 tabular-nums">
              {formatMoney(card.initialValue)}
            </span>{' '}
            value
          </span>
        </p>
        {note ? (
          <p
            role="status"
            className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-600/20 ring-inset"
          >
            {note}
          </p>
        ) : null}
        <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-4 border-t border-slate-100 pt-5">
          <div>
            <dt className="text-sm font-medium text-slate-600">Status</dt>
            <dd className="mt-1">
              <StatusBadge status={card.status} />
            </dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-600">Expires</dt>
            <dd className="mt-1 text-slate-900">
              <ExpiryDate expiresAt={card.expiresAt} />
            </dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-600">Sold</dt>
            <dd className="mt-1 text-slate-900">
              <time dateTime={card.purchasedAt}>{formatDate(card.purchasedAt)}</time>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-sm font-medium text-slate-600">Code</dt>
            <dd className="mt-1 font-mono text-sm font-semibold tracking-wide whitespace-nowrap text-slate-900">
              <span aria-hidden="true">{shortMaskedCode(card.codeLast4)}</span>
              <span className="sr-only">ending in {card.codeLast4.split('').join(' ')}</span>
            </dd>
          </div>
          <div className="col-span-2 min-w-0">
            <dt className="text-sm font-medium text-slate-600">Card ID</dt>
            <dd className="mt-1 font-mono text-sm font-semibold tracking-wide break-words text-slate-900">
              {card.uniqueId}
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

/** The last few uses, newest first, with the balance after each. */
export function RecentUses({ card }: { card: SoldCard }) {
  return (
    <section
      aria-labelledby={`recent-${card.id}`}
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <h2 id={`recent-${card.id}`} className="px-5 pt-5 text-base font-semibold text-slate-900 sm:px-6">
        Last uses
      </h2>
      {card.recentActivities.length === 0 ? (
        <p className="px-5 pt-2 pb-5 text-sm text-slate-600 sm:px-6">
          Nothing has happened on this card yet.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {card.recentActivities.map((activity) => (
            <ActivityRow
              key={activity.id}
              activity={activity}
              viewer="business"
              className="px-5 py-3 sm:px-6"
            />
          ))}
        </ul>
      )}
    </section>
  );
}

type Dialog = 'block' | 'refund' | null;

/**
 * Block / Unblock (a card reported lost or stolen) and Refund (an unused card within 30 days of sale).
 * Each answer is the card as it is now, which replaces the one on screen.
 */
export function CardActions({ card }: { card: SoldCard }) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const refundAttempt = useRef<string | null>(null);

  function updated(next: SoldCard, message: string) {
    queryClient.setQueryData(soldCardKeys.one(next.id), next);
    void queryClient.invalidateQueries({ queryKey: soldCardKeys.all, refetchType: 'none' });
    setDialog(null);
    setError(null);
    setReason('');
    setDone(message);
  }

  const failed = (fallback: string) => (err: unknown) =>
    setError(err instanceof ApiError ? err.message : fallback);

  const block = useMutation({
    mutationFn: () => blockCard(card.id, reason.trim() || undefined),
    onSuccess: (next) => updated(next, 'The card is blocked: nobody can redeem it until you unblock it.'),
    onError: failed('The card could not be blocked. Please try again.'),
  });
  const unblock = useMutation({
    mutationFn: () => unblockCard(card.id),
    onSuccess: (next) => updated(next, 'The card is unblocked and can be redeemed again.'),
    onError: (err) => setDone(err instanceof ApiError ? err.message : 'The card could not be unblocked.'),
  });
  const refund = useMutation({
    mutationFn: () => {
      // One key per refund; a retry after a lost answer reuses it, so the buyer is never refunded twice.
      refundAttempt.current ??= crypto.randomUUID();
      return refundCard(card.id, refundAttempt.current);
    },
    onSuccess: (next) => {
      refundAttempt.current = null;
      // The refund took the sale back out of the wallet (the wallet's query key, named here to refresh it).
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      updated(next, `Refunded: the buyer gets ${formatMoney(next.initialValue)} back and the card is void.`);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status > 0 && err.status < 500) refundAttempt.current = null;
      failed('The refund could not be made. Please try again.')(err);
    },
  });

  function open(which: Dialog) {
    setError(null);
    setDone('');
    setDialog(which);
  }

  // Only a card that can still be spent (or one its holder froze) can be blocked.
  const canBlock = card.status === 'active' || card.status === 'frozen';
  const canUnblock = card.status === 'blocked';
  const refundable = card.refundableUntil !== null && card.status !== 'void';
  const anyAction = canBlock || canUnblock || refundable;
  if (!anyAction && !done) return null;

  return (
    <section
      aria-labelledby={`manage-${card.id}`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={`manage-${card.id}`} className="text-base font-semibold text-slate-900">
        Manage this card
      </h2>
      {anyAction ? (
        <p className="mt-1 text-sm text-slate-600">
          {canBlock || canUnblock
            ? 'Block a card its holder reported lost or stolen; nobody can redeem it until you unblock it.'
            : ''}
          {refundable ? ` You can refund this unused card until ${formatDate(card.refundableUntil!)}.` : ''}
        </p>
      ) : null}
      <div className={anyAction ? 'mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap' : 'hidden'}>
        {canBlock ? (
          <Button variant="secondary" onClick={() => open('block')}>
            <Icon path={icons.lock} className="h-4 w-4" />
            Block card
          </Button>
        ) : null}
        {canUnblock ? (
          <Button
            variant="secondary"
            onClick={() => {
              setDone('');
              unblock.mutate();
            }}
            disabled={unblock.isPending}
            aria-busy={unblock.isPending || undefined}
          >
            <Icon path={icons.lock} className="h-4 w-4" />
            {unblock.isPending ? 'Unblocking…' : 'Unblock card'}
          </Button>
        ) : null}
        {refundable ? (
          <Button variant="secondary" onClick={() => open('refund')}>
            <Icon path={icons.arrowLeft} className="h-4 w-4" />
            Refund {formatMoney(card.initialValue)}
          </Button>
        ) : null}
      </div>
      <p
        role="status"
        aria-live="polite"
        className={done ? 'mt-3 text-sm font-medium text-slate-800' : 'sr-only'}
      >
        {done}
      </p>

      <ConfirmDialog
        open={dialog === 'block'}
        title="Block this card?"
        description="Nobody can redeem it until you unblock it. Do this when the holder reports the card lost or stolen."
        confirmLabel="Block card"
        pendingLabel="Blocking…"
        variant="danger"
        pending={block.isPending}
        error={dialog === 'block' ? error : null}
        onConfirm={() => block.mutate()}
        onClose={() => setDialog(null)}
      >
        <TextField
          label="Reason (optional)"
          value={reason}
          maxLength={REFERENCE_MAX_LENGTH}
          onChange={(event) => setReason(event.target.value)}
          placeholder="e.g. Reported lost by the holder"
          hint="The holder sees it in the card’s history."
        />
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog === 'refund'}
        title={`Refund ${formatMoney(card.initialValue)}?`}
        description={
          <>
            The buyer gets {formatMoney(card.initialValue)} back to the way they paid, the same amount leaves
            your wallet, and the card’s code stops working for good. This cannot be undone.
          </>
        }
        confirmLabel="Refund the buyer"
        pendingLabel="Refunding…"
        variant="danger"
        pending={refund.isPending}
        error={dialog === 'refund' ? error : null}
        onConfirm={() => refund.mutate()}
        onClose={() => setDialog(null)}
      />
    </section>
  );
}
