import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { Gift } from '../../../shared/cards/gifts';
import { formatMoney } from '../../../shared/money';
import { Button, ButtonLink } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { ApiError } from '../../lib/api';
import { nextQuery } from '../../lib/next-path';
import { useGiftCardStore } from '../../lib/store';
import { logOut } from '../accounts/api';
import { GiftCardTile } from '../catalogue/gift-card-tile';
import { formatDateTime } from './format';
import { DeclineGiftButton, useAcceptGift } from './gift-actions';
import { GiftStatusBadge, recipientLabel } from './gift-status';
import { forgetGiftToken, recallGiftToken, rememberGiftToken, tokenFromHash } from './gift-token';
import { getGift, giftKeys, previewGift } from './gifts-api';

/**
 * /gifts/:id — where a gift's e-mail link (`#token=…`) and its notification lead. Anyone with the link
 * sees the gift (who sent it, the card, the message, its status); a signed-out visitor logs in or signs up
 * and comes back here (the token waits in this tab's sessionStorage); a user accepts — and goes to the
 * card, now theirs with a new code — or declines; a business is told that gifts go to personal accounts.
 */
export default function GiftLandingPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useGiftCardStore((s) => s.userData);
  const business = useGiftCardStore((s) => s.bizClient);
  // The link's token, or the one kept from it before a detour through log-in.
  const [token] = useState(() => tokenFromHash(location.hash) ?? recallGiftToken(id));

  // Keep the token for this tab, and take it out of the address bar (screenshots, shared screens).
  useEffect(() => {
    if (!token) return;
    rememberGiftToken(id, token);
    if (location.hash) navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [id, token, location.hash, location.pathname, location.search, navigate]);

  // With the link's token anyone may look; without it, only the sender or the recipient (a user).
  const gift = useQuery({
    queryKey: token ? giftKeys.preview(id) : giftKeys.one(id),
    queryFn: ({ signal }) => (token ? previewGift(id, token, signal) : getGift(id, signal)),
    enabled: Boolean(token || user),
    staleTime: 0,
  });

  const next = nextQuery(`/gifts/${id}`);

  if (!token && business) {
    return (
      <Panel title="Gifts go to personal accounts" icon={icons.gift}>
        <BusinessSignedIn giftId={id} />
      </Panel>
    );
  }

  if (!token && !user && !business) {
    return (
      <Panel title="Open your gift" icon={icons.gift}>
        <p>
          To see this gift, open the link in the e-mail that told you about it, or log in to the account it
          was sent to.
        </p>
        <Actions>
          <ButtonLink to={`/login${next}`}>Log in</ButtonLink>
          <ButtonLink to={`/register${next}`} variant="secondary">
            Sign up
          </ButtonLink>
        </Actions>
      </Panel>
    );
  }

  if (gift.isPending) {
    return (
      <div role="status" aria-live="polite" className="mx-auto max-w-xl">
        <span className="sr-only">Loading your gift…</span>
        <div aria-hidden="true" className="h-96 animate-pulse rounded-2xl bg-slate-200" />
      </div>
    );
  }

  if (gift.isError) {
    if (gift.error instanceof ApiError && (gift.error.status === 404 || gift.error.status === 400)) {
      return (
        <Panel title="We couldn’t find this gift" icon={icons.gift} tone="muted">
          <p>
            {token
              ? 'The link may be incomplete, or it was replaced: the sender may have corrected the address, which sends a new link.'
              : 'It may belong to another account. If you were sent a link by e-mail, open it from there.'}
          </p>
          <Actions>
            <ButtonLink to={user ? '/user-dashboard/gifts' : business ? '/dashboard' : '/'}>
              {user ? 'Your gifts' : business ? 'Your dashboard' : 'Go to Giftmart'}
            </ButtonLink>
          </Actions>
        </Panel>
      );
    }
    return (
      <div className="mx-auto max-w-xl">
        <h1 className="mb-6 text-3xl font-extrabold tracking-tight text-slate-900">Your gift</h1>
        <LoadError
          title="We couldn’t load this gift."
          message={gift.error.message}
          onRetry={() => gift.refetch()}
          retrying={gift.isFetching}
        />
      </div>
    );
  }

  return <GiftView gift={gift.data} token={token ?? undefined} />;
}

function GiftView({ gift, token }: { gift: Gift; token?: string }) {
  const user = useGiftCardStore((s) => s.userData);
  const business = useGiftCardStore((s) => s.bizClient);
  const sender = gift.direction === 'sent' && Boolean(user);
  const title = sender
    ? `Your gift to ${gift.recipientName ?? gift.recipient}`
    : `${gift.senderName} sent you a gift card`;

  return (
    <Panel title={title} icon={icons.gift}>
      <div className="flex justify-center text-left">
        <GiftCardTile
          card={{
            businessName: gift.card.businessName,
            brandLogoUrl: gift.card.brandLogoUrl,
            amount: gift.card.balance,
            colour: gift.card.colour,
            uniqueId: gift.card.uniqueId,
          }}
        />
      </div>
      {gift.message ? (
        <figure className="mx-auto mt-6 max-w-md rounded-xl bg-brand-50 px-5 py-4 text-left">
          <blockquote className="break-words whitespace-pre-line text-slate-800 italic">
            “{gift.message}”
          </blockquote>
          <figcaption className="mt-2 text-sm font-medium text-slate-700">— {gift.senderName}</figcaption>
        </figure>
      ) : null}
      <dl className="mx-auto mt-6 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-2 border-t border-slate-100 pt-5 text-left text-sm">
        <dt className="text-slate-600">From</dt>
        <dd className="min-w-0 font-medium break-words text-slate-900">{gift.senderName}</dd>
        {sender ? (
          <>
            <dt className="text-slate-600">To</dt>
            <dd className="min-w-0 font-medium break-words text-slate-900">{recipientLabel(gift)}</dd>
          </>
        ) : null}
        <dt className="text-slate-600">Amount</dt>
        <dd className="font-medium text-slate-900 tabular-nums">{formatMoney(gift.card.balance)}</dd>
        <dt className="text-slate-600">To spend at</dt>
        <dd className="min-w-0 font-medium break-words text-slate-900">{gift.card.businessName}</dd>
        <dt className="text-slate-600">Status</dt>
        <dd>
          <GiftStatusBadge status={gift.status} />
        </dd>
        {gift.status === 'pending' && gift.expiresAt ? (
          <>
            <dt className="text-slate-600">Accept by</dt>
            <dd className="text-slate-900">
              <time dateTime={gift.expiresAt}>{formatDateTime(gift.expiresAt)}</time>
            </dd>
          </>
        ) : null}
      </dl>
      <div className="mt-6">
        {sender ? (
          <SenderNext gift={gift} />
        ) : gift.status !== 'pending' ? (
          <Ended gift={gift} />
        ) : business ? (
          <BusinessSignedIn giftId={gift.id} />
        ) : user ? (
          <AcceptOrDecline gift={gift} token={token} />
        ) : (
          <SignInToAccept gift={gift} />
        )}
      </div>
    </Panel>
  );
}

function SignInToAccept({ gift }: { gift: Gift }) {
  const next = nextQuery(`/gifts/${gift.id}`);
  return (
    <>
      <p>
        Gift cards are kept in a Giftmart account, where you can see the code and spend it at{' '}
        {gift.card.businessName}. Log in, or create a free account, to accept it — you come back here after.
      </p>
      <Actions>
        <ButtonLink to={`/login${next}`}>Log in to accept</ButtonLink>
        <ButtonLink to={`/register${next}`} variant="secondary">
          Sign up to accept
        </ButtonLink>
      </Actions>
    </>
  );
}

function AcceptOrDecline({ gift, token }: { gift: Gift; token?: string }) {
  const accept = useAcceptGift(gift.id, token);
  const [declined, setDeclined] = useState(false);
  if (declined) {
    return <p role="status">You declined this gift. The card went back to {gift.senderName}.</p>;
  }
  return (
    <>
      <p>Accept it and the card is yours, with a new secret code only you can see.</p>
      {accept.isError ? (
        <p
          role="alert"
          className="mx-auto mt-4 max-w-md rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {accept.error instanceof ApiError
            ? accept.error.message
            : 'Something went wrong. Please try again.'}
        </p>
      ) : null}
      <Actions>
        <Button
          onClick={() => accept.mutate()}
          disabled={accept.isPending}
          aria-busy={accept.isPending || undefined}
        >
          <Icon path="M5 13l4 4L19 7" className="h-4 w-4" />
          {accept.isPending ? 'Accepting…' : 'Accept gift'}
        </Button>
        <DeclineGiftButton
          gift={gift}
          token={token}
          onDeclined={() => {
            forgetGiftToken(gift.id);
            setDeclined(true);
          }}
        />
      </Actions>
    </>
  );
}

/** Gifts go to people: a business account cannot hold one. Offer to log out and come back. */
function BusinessSignedIn({ giftId }: { giftId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  async function switchAccount() {
    setLeaving(true);
    try {
      await logOut();
    } catch {
      // The session may already be gone on the server; this browser forgets it either way.
    }
    useGiftCardStore.getState().logout();
    queryClient.clear();
    navigate(`/login${nextQuery(`/gifts/${giftId}`)}`, { replace: true });
  }
  return (
    <>
      <p className="mx-auto max-w-md rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-left text-amber-900">
        You are signed in as a business. Gifts go to personal accounts: log out, then log in to (or create)
        your personal account to accept it.
      </p>
      <Actions>
        <Button onClick={switchAccount} disabled={leaving} aria-busy={leaving || undefined}>
          {leaving ? 'Logging out…' : 'Log out and use a personal account'}
        </Button>
        <ButtonLink to="/dashboard" variant="secondary">
          Back to your dashboard
        </ButtonLink>
      </Actions>
    </>
  );
}

function Ended({ gift }: { gift: Gift }) {
  const user = useGiftCardStore((s) => s.userData);
  const words: Record<Gift['status'], string> = {
    scheduled: 'This gift is not on its way yet. Its link works once it is sent.',
    pending: '',
    accepted: 'This gift has been accepted.',
    declined: `This gift was declined, and the card went back to ${gift.senderName}.`,
    cancelled: `${gift.senderName} cancelled this gift.`,
    expired: `Nobody accepted this gift in time, so the card went back to ${gift.senderName}.`,
  };
  const mine = gift.status === 'accepted' && gift.direction === 'received' && user && gift.purchasedCardId;
  return (
    <>
      <p>{words[gift.status]}</p>
      <Actions>
        {mine ? (
          <ButtonLink to={`/user-dashboard/mycards/${gift.purchasedCardId}`}>
            View your card
            <Icon path={icons.arrowRight} className="h-4 w-4" />
          </ButtonLink>
        ) : (
          <ButtonLink to="/" variant="secondary">
            Go to Giftmart
          </ButtonLink>
        )}
      </Actions>
    </>
  );
}

function SenderNext({ gift }: { gift: Gift }) {
  const open = gift.status === 'pending' || gift.status === 'scheduled';
  return (
    <>
      <p>
        {open
          ? 'It waits for them to accept it. You can cancel it or correct the address from Gifts.'
          : gift.status === 'accepted'
            ? `${gift.recipientName ?? gift.recipient} accepted your gift.`
            : 'This gift is over, and the card came back to you.'}
      </p>
      <Actions>
        <ButtonLink to="/user-dashboard/gifts?tab=sent">Your sent gifts</ButtonLink>
      </Actions>
    </>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row sm:flex-wrap">{children}</div>;
}

function Panel({
  title,
  icon,
  tone = 'brand',
  children,
}: {
  title: string;
  icon: string;
  tone?: 'brand' | 'muted';
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white px-5 py-8 text-center shadow-sm sm:px-10 sm:py-10">
      <span
        className={`mx-auto flex h-16 w-16 items-center justify-center rounded-full ${
          tone === 'brand' ? 'bg-brand-50 text-brand-600' : 'bg-slate-100 text-slate-600'
        }`}
      >
        <Icon path={icon} className="h-8 w-8" />
      </span>
      <h1 className="mt-5 text-2xl font-bold tracking-tight break-words text-slate-900">{title}</h1>
      <div className="mt-4 text-slate-700">{children}</div>
    </div>
  );
}
