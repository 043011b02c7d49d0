import type { MyCardsPage, MyCardsQuery } from '../../../shared/cards/my-cards';
import { listMyCards, type CardsDeps } from './cards.service';
import { listGifts, type GiftCaller } from './gifts.service';

/**
 * My Gift Cards (issue 13): the cards the caller holds, filtered and sorted; or, for "sent", the gifts they
 * gave away that were accepted, each card as it was handed on, since it is its recipient's card now (its
 * balance today and its new code are theirs alone).
 */
export async function listMyGiftCards(
  deps: CardsDeps,
  caller: GiftCaller,
  query: MyCardsQuery,
): Promise<MyCardsPage> {
  if (query.status === 'sent') {
    const page = await listGifts(deps, caller, {
      direction: 'sent',
      status: 'accepted',
      limit: query.limit,
      cursor: query.cursor,
    });
    return { items: [], sentGifts: page.items, nextCursor: page.nextCursor };
  }
  const page = await listMyCards(deps, caller.id, {
    limit: query.limit,
    cursor: query.cursor,
    filter: query.status,
    sort: query.sort,
  });
  return { ...page, sentGifts: [] };
}
