import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { GiftRequest } from '../../../shared/cards/gifts';
import { showError } from '../../components/ui/dialogs';
import { ApiError } from '../../lib/api';
import { cardKeys } from '../catalogue/api';
import { createOrder, orderKeys } from './api';

/** A v4 UUID; crypto.randomUUID exists only in secure contexts, so fall back to getRandomValues. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * "Purchase this card": creates the order and sends the browser to the provider's hosted checkout.
 *
 * One purchase attempt has one Idempotency-Key. When the request is lost (no connection) or the server
 * failed, the key is kept, so pressing the button again retries the same attempt and can never buy twice.
 * A definite answer (the order, or a 4xx such as "no longer on sale") ends the attempt. Buying as a gift
 * sends the gift with the order; changing the gift makes it a new attempt. `onGiftError` may take an
 * answer about the gift (a field error, a recipient who cannot receive it) to show in the gift's form.
 */
export function usePurchase({ onGiftError }: { onGiftError?: (error: unknown) => boolean } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const attempt = useRef<{ giftCardId: string; gift: string; key: string } | null>(null);
  const [redirecting, setRedirecting] = useState(false);

  // Back from the checkout page can restore this page from the back/forward cache: let it be used again.
  useEffect(() => {
    function onPageShow(event: PageTransitionEvent) {
      if (event.persisted) setRedirecting(false);
    }
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const mutation = useMutation({
    mutationFn: ({ giftCardId, gift }: { giftCardId: string; gift?: GiftRequest }) => {
      const giftText = JSON.stringify(gift ?? null);
      if (attempt.current?.giftCardId !== giftCardId || attempt.current.gift !== giftText) {
        attempt.current = { giftCardId, gift: giftText, key: newIdempotencyKey() };
      }
      return createOrder(giftCardId, attempt.current.key, gift);
    },
    onSuccess: (order) => {
      attempt.current = null;
      queryClient.setQueryData(orderKeys.one(order.id), order);
      if (order.status !== 'pending' || !order.checkoutUrl) {
        // Already settled (a replay of an earlier attempt): its result page says how it went.
        navigate(`/user-dashboard/orders/${order.id}`);
        return;
      }
      setRedirecting(true);
      window.location.assign(order.checkoutUrl);
    },
    onError: (error, { giftCardId, gift }) => {
      const definite = error instanceof ApiError && error.status >= 400 && error.status < 500;
      if (definite) {
        attempt.current = null;
        // The card may have stopped selling or gone: show its current state behind the dialog.
        void queryClient.invalidateQueries({ queryKey: cardKeys.one(giftCardId) });
      }
      if (gift && onGiftError?.(error)) return;
      void showError(
        'We couldn’t start your purchase',
        error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
      );
    },
  });

  return {
    purchase: (giftCardId: string, gift?: GiftRequest) => mutation.mutate({ giftCardId, gift }),
    busy: mutation.isPending || redirecting,
  };
}
