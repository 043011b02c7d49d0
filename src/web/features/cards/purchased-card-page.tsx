import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { PurchasedCardDetail } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { Avatar } from '../../components/ui/avatar';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { showError } from '../../components/ui/dialogs';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { isNotFound, NotFoundPage } from '../../components/ui/not-found';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api';
import { LargeTile } from '../catalogue/large-tile';
import { getPurchasedCard, purchasedCardKeys, revealCode, setFrozen } from './api';
import { ActivityRow } from './activity-row';
import { formatDate, maskedCode } from './format';
import { StatusBadge } from './status-badge';
import { CardDetailSkeleton } from '../../components/ui/card-detail-skeleton';
import { ExpiryDate } from './expiry-date';
import { PendingGift } from './pending-gift';
import { SendGiftControl } from './send-gift-dialog';

const COPIED_FOR_MS = 2000;
const COPY_ICON =
  'M8 16H6a2 2 0 01-2-2V6a2 2 0 012-2h8a2 2 0 012 2v2m-6 12h8a2 2 0 002-2v-8a2 2 0 00-2-2h-8a2 2 0 00-2 2v8a2 2 0 002 2z';

function BackLink() {
  return (
    <Link
      to="/user-dashboard/mycards"
      className="mb-4 inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon path={icons.arrowLeft} className="h-4 w-4" />
      My Gift Cards
    </Link>
  );
}

/** /user-dashboard/mycards/:cardId — one of the user's cards: balance, status, secret code and history. */
export default function PurchasedCardPage() {
  const { cardId = '' } = useParams();
  const card = useQuery({
    queryKey: purchasedCardKeys.mineOne(cardId),
    queryFn: ({ signal }) => getPurchasedCard(cardId, signal),
  });

  if (card.isPending) {
    return (
      <>
        <BackLink />
        <PageHeader title="Your gift card" />
        <CardDetailSkeleton label="Loading your gift card…" />
      </>
    );
  }

  if (card.isError) {
    if (isNotFound(card.error)) {
      return (
        <NotFoundPage
          heading="Gift card not found"
          icon={icons.cards}
          title="We couldn’t find this card in your account"
          text="The link may be incomplete, or the card belongs to someone else — a card you gave as a gift is its recipient’s once they accept it."
        >
          <ButtonLink to="/user-dashboard/mycards">
            <Icon path={icons.arrowLeft} className="h-4 w-4" />
            Back to My Gift Cards
          </ButtonLink>
        </NotFoundPage>
      );
    }
    return (
      <>
        <BackLink />
        <PageHeader title="Your gift card" />
        <LoadError
          title="We couldn’t load this gift card."
          message={card.error.message}
          onRetry={() => card.refetch()}
          retrying={card.isFetching}
        />
      </>
    );
  }

  return <CardView card={card.data} />;
}

function CardView({ card }: { card: PurchasedCardDetail }) {
  const notes: Record<PurchasedCardDetail['status'], string | null> = {
    active: null,
    redeemed: 'This card has been used up.',
    expired: 'This card has expired and can no longer be spent.',
    void: 'This card was refunded and can no longer be spent.',
    frozen: 'You froze this card: nobody can spend it until you unfreeze it.',
    blocked: `${card.businessName} blocked this card (for example, reported lost). Contact them to unblock it.`,
    gift_pending:
      'You sent this card as a gift. It cannot be spent until the recipient accepts it or it comes back to you.',
  };
  const note = notes[card.status];
  return (
    <>
      <BackLink />
      <PageHeader title={`${card.businessName} gift card`} />

      <div className="flex flex-col items-center gap-8 lg:flex-row lg:items-start">
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
          aria-labelledby="card-summary"
          className="w-full min-w-0 flex-1 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="card-summary" className="text-sm font-medium text-slate-600">
            Balance
          </h2>
          <p className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <span className="text-4xl font-extrabold tracking-tight text-slate-900 tabular-nums">
              {formatMoney(card.balance)}
            </span>
            <span className="text-slate-600">
              of{' '}
              <span className="font-semibold text-slate-800 tabular-nums">
                {formatMoney(card.initialValue)}
              </span>{' '}
              initial value
            </span>
          </p>
          {note ? <p className="mt-3 text-sm font-medium text-slate-700">{note}</p> : null}

          <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-4 border-t border-slate-100 pt-5">
            <div>
              <dt className="text-sm font-medium text-slate-600">Status</dt>
              <dd className="mt-1">
                <StatusBadge status={card.status} />
              </dd>
            </div>
            <div>
              <dt className="text-sm font-medium text-slate-600">Purchased</dt>
              <dd className="mt-1 text-slate-900">
                <time dateTime={card.purchasedAt}>{formatDate(card.purchasedAt)}</time>
              </dd>
            </div>
            <div>
              <dt className="text-sm font-medium text-slate-600">Expires</dt>
              <dd className="mt-1 text-slate-900">
                <ExpiryDate expiresAt={card.expiresAt} />
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-sm font-medium text-slate-600">Card ID</dt>
              <dd className="mt-1 break-words font-mono text-sm font-semibold tracking-wide text-slate-900 sm:text-base">
                {card.uniqueId}
              </dd>
            </div>
            <div className="col-span-2">
              <dt className="text-sm font-medium text-slate-600">Business</dt>
              <dd className="mt-1 flex min-w-0 items-center gap-2 text-slate-900">
                <Avatar
                  name={card.businessName}
                  src={card.brandLogoUrl}
                  decorative
                  className="h-7 w-7 text-xs"
                />
                <span className="truncate font-medium">{card.businessName}</span>
              </dd>
            </div>
          </dl>
          <SendGiftControl card={card} />
          <FreezeControl card={card} />
        </section>
      </div>

      <PendingGift card={card} />
      <CodeSection card={card} />
      <History card={card} />
    </>
  );
}

/**
 * Freeze at once (a use the holder did not make, a lost phone): nobody can spend the card until they
 * unfreeze it. Freezing asks first; unfreezing does not.
 */
function FreezeControl({ card }: { card: PurchasedCardDetail }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const toggle = useMutation({
    mutationFn: (frozen: boolean) => setFrozen(card.id, frozen),
    onSuccess: (next, frozen) => {
      queryClient.setQueryData(purchasedCardKeys.mineOne(card.id), next);
      void queryClient.invalidateQueries({ queryKey: purchasedCardKeys.mineList });
      setConfirming(false);
      setError(null);
      setDone(
        frozen
          ? 'Card frozen. Nobody can spend it until you unfreeze it.'
          : 'Card unfrozen. It can be spent again.',
      );
    },
    onError: (err) =>
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.'),
  });

  if (card.status !== 'active' && card.status !== 'frozen') return null;
  const frozen = card.status === 'frozen';

  return (
    <div className="mt-5 flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <p className="text-sm text-slate-600">
        {frozen
          ? 'Unfreeze it when you are ready to spend it again.'
          : 'A use you did not make? Freeze the card at once.'}
      </p>
      {frozen ? (
        <Button
          variant="secondary"
          onClick={() => {
            setDone('');
            setError(null);
            toggle.mutate(false);
          }}
          disabled={toggle.isPending}
          aria-busy={toggle.isPending || undefined}
          className="shrink-0"
        >
          <Icon path={icons.lock} className="h-4 w-4" />
          {toggle.isPending ? 'Unfreezing…' : 'Unfreeze'}
        </Button>
      ) : (
        <Button
          variant="secondary"
          onClick={() => {
            setError(null);
            setDone('');
            setConfirming(true);
          }}
          className="shrink-0"
        >
          <Icon path={icons.lock} className="h-4 w-4" />
          Freeze card
        </Button>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {done}
      </p>
      {error && !confirming ? (
        <p role="alert" className="text-sm text-red-700 sm:basis-full">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Freeze this card?"
        description="Nobody can spend it until you unfreeze it."
        confirmLabel="Freeze card"
        pendingLabel="Freezing…"
        variant="danger"
        pending={toggle.isPending}
        error={error}
        onConfirm={() => toggle.mutate(true)}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}

/** The secret redemption code: masked until asked for, then shown with Copy and a QR code. */
function CodeSection({ card }: { card: PurchasedCardDetail }) {
  const [code, setCode] = useState<string | null>(null);
  const [qr, setQr] = useState<{ code: string; src: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const codeRef = useRef<HTMLParagraphElement>(null);
  const showRef = useRef<HTMLButtonElement>(null);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const focusAfter = useRef<'code' | 'show' | null>(null);

  const reveal = useMutation({
    mutationFn: () => revealCode(card.id),
    onSuccess: ({ code: revealed }) => {
      focusAfter.current = 'code';
      setCode(revealed);
    },
    onError: (error) =>
      showError(
        'We couldn’t show the code',
        error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
      ),
  });

  // Draw the QR code once the code is known; the library loads only for this.
  useEffect(() => {
    if (!code) return;
    let cancelled = false;
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(code, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      )
      .then((svg) => {
        if (!cancelled) setQr({ code, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      })
      .catch((error: unknown) => console.error('QR code', error));
    return () => {
      cancelled = true;
    };
  }, [code]);

  // Keyboard and screen-reader users land on what replaced the button they pressed.
  useEffect(() => {
    if (focusAfter.current === 'code') codeRef.current?.focus();
    if (focusAfter.current === 'show') showRef.current?.focus();
    focusAfter.current = null;
  }, [code]);

  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  async function copy() {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    } catch {
      void showError(
        'Couldn’t copy',
        'Your browser did not allow copying. Select the code and copy it instead.',
      );
    }
  }

  function hide() {
    focusAfter.current = 'show';
    setCode(null);
    setQr(null);
    setCopied(false);
  }

  const qrSrc = qr && qr.code === code ? qr.src : null;

  return (
    <section
      aria-labelledby="code-title"
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="code-title" className="text-lg font-semibold text-slate-900">
        Redemption code
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Give this code to {card.businessName} to pay with your card. Keep it secret: anyone who has it can
        spend the balance.
      </p>

      <div className="mt-5 flex flex-col gap-6 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          {code ? (
            <p
              ref={codeRef}
              tabIndex={-1}
              className="select-all break-words rounded-xl bg-slate-100 px-4 py-3 font-mono text-lg font-bold tracking-wider text-slate-900 focus:outline-2 focus:outline-brand-600 sm:text-2xl"
            >
              <span className="sr-only">Your code: </span>
              <span>{code}</span>
            </p>
          ) : (
            <p className="rounded-xl bg-slate-100 px-4 py-3 font-mono text-lg font-bold tracking-wider text-slate-700 sm:text-2xl">
              <span aria-hidden="true">{maskedCode(card.codeLast4)}</span>
              <span className="sr-only">Code hidden, ending in {card.codeLast4.split('').join(' ')}</span>
            </p>
          )}

          <div className="mt-4 flex flex-wrap gap-3">
            {code ? (
              <>
                <Button onClick={copy}>
                  <Icon path={copied ? 'M5 13l4 4L19 7' : COPY_ICON} className="h-4 w-4" />
                  {copied ? 'Copied' : 'Copy code'}
                </Button>
                <Button variant="secondary" onClick={hide}>
                  <Icon path={icons.eyeOff} className="h-4 w-4" />
                  Hide code
                </Button>
              </>
            ) : (
              // A plain button: the shared Button does not pass a ref, and focus comes back here on Hide.
              <button
                ref={showRef}
                type="button"
                className={buttonClass('primary')}
                onClick={() => reveal.mutate()}
                disabled={reveal.isPending}
                aria-busy={reveal.isPending || undefined}
              >
                <Icon path={icons.eye} className="h-4 w-4" />
                {reveal.isPending ? 'Showing…' : 'Show code'}
              </button>
            )}
          </div>
          <p role="status" aria-live="polite" className="sr-only">
            {copied ? 'Code copied' : ''}
          </p>
        </div>

        {code ? (
          <div className="flex shrink-0 flex-col items-center gap-2 self-center">
            {qrSrc ? (
              <img
                src={qrSrc}
                alt="QR code of your gift card code"
                width={176}
                height={176}
                className="h-44 w-44 rounded-lg bg-white ring-1 ring-slate-200"
              />
            ) : (
              <div aria-hidden="true" className="h-44 w-44 animate-pulse rounded-lg bg-slate-100" />
            )}
            <p className="text-xs text-slate-600">Let the cashier scan it</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** Every change to the balance, newest first. */
function History({ card }: { card: PurchasedCardDetail }) {
  const activities = [...card.activities].reverse();
  return (
    <section
      aria-labelledby="history-title"
      className="mt-8 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <h2 id="history-title" className="px-6 pt-5 text-lg font-semibold text-slate-900">
        History
      </h2>
      {activities.length === 0 ? (
        <p className="px-6 pb-6 pt-2 text-slate-600">Nothing has happened on this card yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {activities.map((activity) => (
            <ActivityRow
              key={activity.id}
              activity={activity}
              viewer="holder"
              className="px-5 py-4 sm:px-6"
            />
          ))}
        </ul>
      )}
    </section>
  );
}
