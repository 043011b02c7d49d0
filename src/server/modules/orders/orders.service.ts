import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../../shared/money';
import type { SoldCard } from '../../../shared/cards/schemas';
import {
  CHECKOUT_CANCELLED_REASON,
  type NewOrder,
  type Order,
  type OrderListQuery,
  type OrderListStatus,
  type OrderPage,
  type OrderReceipt,
  type OrderSummary,
} from '../../../shared/orders/schemas';
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import { AppError, notFound } from '../../lib/app-error';
import { batchedPerPool, perOwner } from '../../lib/batch';
import { BoundedMap } from '../../lib/bounded-map';
import { pooledRandomBytes } from '../../lib/crypto';
import { decodeCursor, encodeCursor } from '../../lib/cursor';
import { publicUrl } from '../../lib/public-url';
import { findAccount } from '../accounts/accounts.service';
import {
  cardsIssued,
  cardsIssuedValues,
  cardToIssue,
  getSoldCard,
  type CodeVault,
} from '../cards/cards.service';
import { checkGiftRequest, sendBoughtGift } from '../cards/gifts.service';
import { idempotencyConflict, isIdempotencyKeyTaken, voidCardForRefund } from '../cards/sold-cards.service';
import {
  findGiftCardForSale,
  logoUrl,
  soldCountsAdded,
  type DesignForSale,
} from '../catalogue/catalogue.service';
import {
  notificationsWritten,
  notificationsWrittenValues,
  notify,
  type NewNotification,
} from '../notifications/notifications.service';
import {
  recordFirstSale,
  recordRefund,
  saleEntries,
  saleEntryValuesOf,
  type Sale,
} from '../wallet/wallet.service';
import type { WebhookHandler } from '../../plugins/webhooks';
import type { PaymentEvent, PaymentProvider, StartPayment } from './payments/payment-provider';

export { createPaymentProvider } from './payments/payments';
import {
  findOrder,
  findOrderForSale,
  findOrderByIdempotencyKey,
  findOrderSummary,
  insertOrder,
  isSaleRefused,
  listOrderSummaries,
  lockOrder,
  lockOrderByReference,
  salesStatement,
  updateOrder,
  type OrderForSale,
  type OrderRow,
  type OrderStateFilter,
  type OrderSummaryRow,
} from './orders.repository';

export interface PurchaseDeps {
  db: Db;
  config: Config;
  payments: PaymentProvider;
  codes: CodeVault;
  log?: FastifyBaseLogger;
}

type FoundOrder = NonNullable<Awaited<ReturnType<typeof findOrder>>>;

function toOrder({ order: row, businessName, purchasedCardId, giftId }: FoundOrder): Order {
  return {
    id: row.id,
    reference: row.reference,
    giftCardId: row.giftCardId,
    businessName,
    status: row.status,
    amount: { amount: Number(row.amount), currency: row.currency },
    checkoutUrl: row.checkoutUrl,
    purchasedCardId,
    giftId,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
  };
}

async function orderView(deps: PurchaseDeps, id: string): Promise<Order> {
  const found = await findOrder(deps.db, id);
  if (!found) throw notFound('That order');
  return toOrder(found);
}

/**
 * What an Idempotency-Key was first sent with: the card, and the gift if it is one (a changed recipient,
 * message or time is another purchase). A plain purchase keeps the card's id alone, as before gifts.
 */
function fingerprint(input: NewOrder): string {
  if (!input.gift) return input.giftCardId;
  const { recipient, recipientName, message, deliverAt } = input.gift;
  const gift = JSON.stringify([recipient, recipientName ?? null, message ?? null, deliverAt ?? null]);
  return `${input.giftCardId}:gift:${createHash('sha256').update(gift).digest('hex')}`;
}

/** Our reference for the provider: unguessable, never reused. */
function newReference(): string {
  return `GM-${pooledRandomBytes(10).toString('hex').toUpperCase()}`;
}

/**
 * Starts buying a gift card: a pending order first, then a payment with the provider, whose hosted
 * checkout the buyer is sent to. With an Idempotency-Key, a retry returns the first order (same body) or
 * is refused (different body); nothing is charged twice. Bought as a gift, the recipient and time are
 * checked before any payment (422 / 400), and kept with the order until the payment is confirmed.
 */
export async function startPurchase(
  deps: PurchaseDeps,
  /** The signed-in buyer, as its session already loaded it (issue 14: no second read of the account). */
  buyer: { id: string; email: string },
  input: NewOrder,
  idempotencyKey?: string,
): Promise<{ order: Order; replayed: boolean }> {
  const buyerId = buyer.id;
  // A retry (the same Idempotency-Key) answers the first order. The key is read only when a check refuses
  // (the card may have gone off sale since) or its unique index writes nothing, not on every purchase.
  const firstOrder = async () => {
    const existing = idempotencyKey
      ? await findOrderByIdempotencyKey(deps.db, buyerId, idempotencyKey)
      : undefined;
    return existing && { order: await replay(deps, existing, input), replayed: true };
  };
  // The design as remembered first (issue 14); read again when the order's statement finds it changed.
  for (let attempt = 0; attempt < DESIGN_ATTEMPTS; attempt += 1) {
    let card: DesignForSale | undefined;
    try {
      card = await findGiftCardForSale(deps.db, input.giftCardId, { fresh: attempt > 0 });
      if (!card) throw notFound('That gift card');
      if (!card.onSale) throw new AppError('CARD_NOT_ON_SALE', 'This gift card is no longer on sale.');
      if (input.gift && attempt === 0) await checkGiftRequest(deps.db, buyerId, input.gift);
    } catch (error) {
      const first = await firstOrder();
      if (first) return first;
      throw error;
    }
    const row = newOrderRow(deps, buyerId, card, input, idempotencyKey);
    // A provider in our own database (the sandbox) starts its payment in the order's own statement.
    const withOrder = deps.payments.paymentWithOrder;
    const started = withOrder && {
      of: withOrder,
      ...withOrder.start(paymentFor(deps, row, buyer.email, card.businessName)),
    };
    const businessName = card.businessName;
    const order = started
      ? await insertOrder(
          deps.db,
          { row: { ...row, checkoutUrl: started.checkoutUrl }, businessName },
          started,
        )
      : await insertOrder(deps.db, { row, businessName });
    if (!order) {
      // Not written: a retry of an order already made, or its design changed since it was read.
      const first = await firstOrder();
      if (first) return first;
      continue;
    }
    const view = started
      ? newOrderView(order, businessName)
      : await beginPayment(deps, order, buyer.email, businessName);
    // Its confirmation, when it reaches this instance, completes it without reading it (a gift's takes the
    // locked path).
    const { validityMonths } = card;
    if (!order.gift) ordersStarted(deps.db).set(order.reference, { order, validityMonths, businessName });
    return { order: view, replayed: false };
  }
  throw new AppError(
    'CARD_NOT_ON_SALE',
    'This gift card changed while you were buying it. Please try again.',
  );
}

/** A new order's row for `card`, as the buyer asked for it. */
function newOrderRow(
  deps: PurchaseDeps,
  buyerId: string,
  card: DesignForSale,
  input: NewOrder,
  idempotencyKey: string | undefined,
) {
  return {
    id: randomUUID(),
    reference: newReference(),
    buyerId,
    giftCardId: card.id,
    businessId: card.businessId,
    amount: card.amount,
    currency: card.currency,
    provider: deps.payments.name,
    idempotencyKey: idempotencyKey ?? null,
    requestFingerprint: fingerprint(input),
    gift: input.gift
      ? {
          recipient: input.gift.recipient,
          ...(input.gift.recipientName ? { recipientName: input.gift.recipientName } : {}),
          ...(input.gift.message ? { message: input.gift.message } : {}),
          ...(input.gift.deliverAt ? { deliverAt: input.gift.deliverAt } : {}),
        }
      : null,
  };
}

/** How many times an order is tried against its design's changes before the buyer is asked to try again. */
const DESIGN_ATTEMPTS = 3;

/**
 * The plain orders this instance started, per pool, until their payment's confirmation (issue 14): a
 * confirmation that finds its order here completes it on the order as it was written, which the sale's
 * statement checks is still pending (`completeSaleAsRead`), without reading it again. Orders left unpaid are
 * dropped after a while, the oldest first; their confirmations read them.
 */
const ordersStarted = perOwner(
  () => new BoundedMap<string, OrderForSale>({ maxEntries: 10_000, maxAgeMs: 30 * 60_000 }),
);

/** A new order has no card or gift yet: its view is known without reading it back. */
function newOrderView(order: OrderRow, businessName: string): Order {
  return toOrder({ order, businessName, purchasedCardId: null, giftId: null });
}

/** What the provider is asked to charge for an order. */
function paymentFor(
  deps: PurchaseDeps,
  order: Pick<OrderRow, 'id' | 'reference' | 'amount' | 'currency'>,
  email: string,
  businessName: string,
): StartPayment {
  return {
    reference: order.reference,
    amount: order.amount,
    currency: order.currency,
    email,
    description: `${businessName} gift card, ${formatMoney({ amount: Number(order.amount), currency: order.currency })}`,
    returnUrl: `${publicUrl(deps.config)}/user-dashboard/orders/${order.id}`,
  };
}

async function replay(deps: PurchaseDeps, existing: OrderRow, input: NewOrder): Promise<Order> {
  if (existing.requestFingerprint !== fingerprint(input)) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different purchase. Use a new key for a new purchase.',
    );
  }
  if (!existing.checkoutUrl && existing.status === 'pending') {
    // The first request may still be starting this payment (a retry after a client time-out): a provider
    // that refuses a second start with the same reference (Paystack) must not fail the first one's order.
    const buyer = await findAccount(deps.db, existing.buyerId);
    const business = await findAccount(deps.db, existing.businessId);
    return beginPayment(deps, existing, buyer!.email, business!.name, { retry: true });
  }
  return orderView(deps, existing.id);
}

async function beginPayment(
  deps: PurchaseDeps,
  order: OrderRow,
  email: string,
  businessName: string,
  options: { retry?: boolean } = {},
): Promise<Order> {
  try {
    const { checkoutUrl } = await deps.payments.startPayment(paymentFor(deps, order, email, businessName));
    await updateOrder(deps.db, order.id, { checkoutUrl });
    if (!options.retry) return newOrderView({ ...order, checkoutUrl }, businessName);
  } catch (error) {
    deps.log?.error({ err: error, reference: order.reference }, 'could not start a payment');
    if (options.retry) {
      // Leave the order pending: the first attempt may have started it; a later retry answers what it got.
      const now = await findOrder(deps.db, order.id);
      if (now?.order.checkoutUrl) return toOrder(now);
    } else {
      await updateOrder(deps.db, order.id, {
        status: 'failed',
        failureReason: 'The payment could not be started. Please try again.',
      });
    }
    throw new AppError(
      'PAYMENT_PROVIDER_ERROR',
      'We could not reach the payment provider. Please try again in a moment.',
    );
  }
  return orderView(deps, order.id);
}

export async function getOrder(deps: PurchaseDeps, buyerId: string, id: string): Promise<Order> {
  const found = await findOrder(deps.db, id);
  // Someone else's order is "not found": an id never grants access by itself.
  if (!found || found.order.buyerId !== buyerId) throw notFound('That order');
  return toOrder(found);
}

/** How the buyer's list names an order's state: a payment the buyer cancelled at the checkout is "cancelled". */
function listStatus(row: OrderRow): OrderListStatus {
  if (row.status === 'failed' && row.failureReason === CHECKOUT_CANCELLED_REASON) return 'cancelled';
  return row.status;
}

const STATE_FILTERS: Record<OrderListStatus, OrderStateFilter> = {
  pending: { status: 'pending' },
  paid: { status: 'paid' },
  refunded: { status: 'refunded' },
  failed: { status: 'failed', reasonNot: CHECKOUT_CANCELLED_REASON },
  cancelled: { status: 'failed', reason: CHECKOUT_CANCELLED_REASON },
};

function toOrderSummary(row: OrderSummaryRow): OrderSummary {
  const { order } = row;
  const status = listStatus(order);
  return {
    id: order.id,
    reference: order.reference,
    status,
    amount: { amount: Number(order.amount), currency: order.currency },
    design: {
      giftCardId: order.giftCardId,
      uniqueId: row.uniqueId,
      businessName: row.businessName,
      brandLogoUrl: logoUrl(row.businessLogoKey),
      colour: row.colour,
    },
    // A card given away (or a gift accepted) is its recipient's now: the buyer is not sent to a 404.
    purchasedCardId: row.purchasedCardId && row.cardOwnerId === order.buyerId ? row.purchasedCardId : null,
    checkoutUrl: status === 'pending' ? order.checkoutUrl : null,
    failureReason:
      status === 'failed' || status === 'cancelled'
        ? (order.failureReason ?? 'The payment did not go through. No money was taken.')
        : null,
    gift: order.gift
      ? {
          recipient: order.gift.recipient,
          recipientName: order.gift.recipientName ?? null,
          giftId: row.giftId,
        }
      : null,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    refundedAt: order.refundedAt?.toISOString() ?? null,
  };
}

/** The buyer's orders, newest first, a keyset page at a time, optionally in one state. */
export async function listOrders(
  deps: Pick<PurchaseDeps, 'db'>,
  buyerId: string,
  query: OrderListQuery,
): Promise<OrderPage> {
  const rows = await listOrderSummaries(deps.db, buyerId, {
    state: query.status ? STATE_FILTERS[query.status] : undefined,
    limit: query.limit + 1,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toOrderSummary),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ cursorTime: last.cursorTime, id: last.order.id })
        : null,
  };
}

/**
 * The receipt of one of the buyer's paid orders (a refunded one keeps its receipt, marked refunded). An
 * order not paid has none; another account's order does not exist for the caller.
 */
export async function getReceipt(
  deps: Pick<PurchaseDeps, 'db'>,
  buyerId: string,
  id: string,
): Promise<OrderReceipt> {
  const row = await findOrderSummary(deps.db, id);
  if (!row || row.order.buyerId !== buyerId) throw notFound('That order');
  if (row.order.status !== 'paid' && row.order.status !== 'refunded') {
    throw new AppError('NOT_FOUND', 'This order has no receipt: it was never paid.');
  }
  return {
    ...toOrderSummary(row),
    buyer: { name: row.buyerName, email: row.buyerEmail },
  };
}

export type ConfirmResult = 'issued' | 'already-paid' | 'marked-failed' | 'ignored';

/**
 * Applies a verified payment confirmation: the order becomes paid, one balanced ledger entry moves the money
 * to the business's wallet (less the platform fee), and the buyer gets a card with a fresh secret code, all
 * in one commit. The same confirmation delivered many times, at once or later, issues one card: the order's
 * state decides (pending becomes paid once), and the ledger's unique reference and the card's unique order
 * id back that up.
 *
 * Issue 14 (ADR 027): a plain purchase's success is written on the order as read, without a lock, in one
 * statement shared with the other confirmations waiting (`completeSaleAsRead`); that statement writes
 * nothing unless the order is still pending and its business's ledger accounts exist. Anything else (a
 * failure, a gift, an order no longer pending, a first sale, an unknown reference or amount) takes the
 * locked path, `applyConfirmation`, which decides as it always has.
 */
export async function confirmPayment(deps: PurchaseDeps, event: PaymentEvent): Promise<ConfirmResult> {
  if (event.type === 'ignored') return 'ignored';
  return (
    (event.type === 'payment.succeeded' ? await confirmAsRead(deps, event) : null) ??
    (await applyConfirmation(deps, event))
  );
}

/** What completing one sale writes: its ledger entry's sale, its card and (given the gift's fate) its news. */
interface SaleWrites {
  sale: Sale;
  card: ReturnType<typeof cardToIssue>;
  news(gift: Awaited<ReturnType<typeof sendBoughtGift>> | null): NewNotification[];
}

function saleWrites(deps: PurchaseDeps, found: OrderForSale, paidAt: Date): SaleWrites {
  const { order, validityMonths, businessName } = found;
  const fee = (order.amount * BigInt(deps.config.PLATFORM_FEE_BPS)) / 10_000n;
  const card = cardToIssue(deps.codes, {
    validityMonths,
    ownerId: order.buyerId,
    giftCardId: order.giftCardId,
    businessId: order.businessId,
    orderId: order.id,
    amount: order.amount,
    currency: order.currency,
  });
  const value = formatMoney({ amount: Number(order.amount), currency: order.currency });
  return {
    sale: {
      orderId: order.id,
      businessId: order.businessId,
      amount: order.amount,
      fee,
      currency: order.currency,
    },
    card,
    news: (gift) => [
      boughtNotice({ order, cardId: card.id, businessName, value, paidAt, gift }),
      {
        accountId: order.businessId,
        kind: 'card_sold' as const,
        title: 'You sold a gift card',
        body: `A ${value} gift card was sold. ${formatMoney({ amount: Number(order.amount - fee), currency: order.currency })} is in your wallet.`,
        link: '/dashboard/wallet',
      },
    ],
  };
}

/** A plain sale to complete on its order as read (ADR 027). */
interface SaleAsRead {
  orderId: string;
  paidAt: Date;
  writes: SaleWrites;
}

/**
 * A statement that completes sales (`salesStatement`), built once: their orders paid (`asRead`: as they were
 * read, without a lock), journal entries, cards, sold counts and, `withNews`, news.
 */
function statementCompletingSales(name: string, options: { asRead: boolean; withNews: boolean }) {
  return salesStatement(name, {
    ctes: [saleEntries.ctes, cardsIssued, ...(options.withNews ? [notificationsWritten] : [])],
    written: saleEntries.written,
    addToSoldCounts: soldCountsAdded(),
    asRead: options.asRead,
  });
}

/** Many plain sales as read; one sale on its locked order, or a gift's (whose news waits for the gift). */
const salesAsRead = statementCompletingSales('sales_as_read', { asRead: true, withNews: true });
const saleLocked = statementCompletingSales('sale_locked', { asRead: false, withNews: true });
const giftSaleLocked = statementCompletingSales('gift_sale_locked', { asRead: false, withNews: false });

/** The sales' statements' values for these sales: their entries, cards and (unless `news` is null) news. */
function saleValues(writes: SaleWrites[], news: NewNotification[] | null): Record<string, unknown> {
  return {
    ...saleEntryValuesOf(writes.map((w) => w.sale)),
    ...cardsIssuedValues(writes.map((w) => w.card)),
    ...(news ? notificationsWrittenValues(news) : {}),
  };
}

/**
 * The sales confirmed while others are being written go together: their orders paid, journal entries,
 * cards and news in one statement, which refuses as a whole (and each is then tried alone) when one of
 * them is no longer as read.
 */
const completeSaleAsRead = batchedPerPool<SaleAsRead, true>((db) => ({
  keys: (sale) => [sale.orderId],
  run: async (sales) => {
    const writes = sales.map((s) => s.writes);
    const news = writes.flatMap((w) => w.news(null));
    await salesAsRead(db, sales, saleValues(writes, news));
    return sales.map(() => true as const);
  },
}));

/**
 * A plain purchase's success written on its order as read (no lock, no transaction round trips), or null
 * when the locked path must decide.
 */
async function confirmAsRead(
  deps: PurchaseDeps,
  event: Extract<PaymentEvent, { type: 'payment.succeeded' }>,
): Promise<ConfirmResult | null> {
  const found =
    ordersStarted(deps.db).take(event.reference) ?? (await findOrderForSale(deps.db, event.reference));
  if (!found) return null;
  const { order } = found;
  const plain =
    order.status === 'pending' &&
    !order.gift &&
    event.amount === order.amount &&
    event.currency === order.currency;
  if (!plain) return null;
  const paidAt = new Date();
  try {
    await completeSaleAsRead(deps.db, { orderId: order.id, paidAt, writes: saleWrites(deps, found, paidAt) });
  } catch (error) {
    if (isSaleRefused(error)) return null;
    throw error;
  }
  return 'issued';
}

/**
 * A confirmation on the locked path, in one transaction: the order row is locked first, so concurrent
 * deliveries of it are handled one at a time.
 */
async function applyConfirmation(
  deps: PurchaseDeps,
  event: Exclude<PaymentEvent, { type: 'ignored' }>,
): Promise<ConfirmResult> {
  return deps.db.transaction(async (tx) => {
    const locked = await lockOrderByReference(tx, event.reference);
    if (!locked) {
      deps.log?.warn({ reference: event.reference }, 'payment confirmation for an unknown order refused');
      throw notFound('That order');
    }
    const { order } = locked;
    if (event.amount !== order.amount || event.currency !== order.currency) {
      deps.log?.warn(
        {
          reference: order.reference,
          expected: `${order.amount} ${order.currency}`,
          got: `${event.amount} ${event.currency}`,
        },
        'payment confirmation with a different amount or currency refused',
      );
      throw new AppError('PAYMENT_MISMATCH', 'The confirmed amount or currency does not match the order.');
    }
    if (order.status === 'paid') return 'already-paid';
    if (event.type === 'payment.failed') {
      if (order.status === 'pending')
        await updateOrder(tx, order.id, { status: 'failed', failureReason: event.reason });
      return 'marked-failed';
    }

    const paidAt = new Date();
    const writes = saleWrites(deps, locked, paidAt);
    // The order paid, its journal entry, its card, its sold count and (unless it is a gift, whose news waits
    // for the gift) its news in one statement.
    const entryWritten = await (order.gift ? giftSaleLocked : saleLocked)(
      tx,
      [{ orderId: order.id, paidAt }],
      saleValues([writes], order.gift ? null : writes.news(null)),
    );
    // Before a business's (or a currency's) first sale its ledger accounts are made, then the entry posted.
    if (!entryWritten) await recordFirstSale(tx, writes.sale);
    // Bought as a gift: it leaves from the buyer now (or at its time); if its recipient can no longer
    // receive it, the card stays with the buyer, who is told why.
    if (order.gift) {
      const gift = await sendBoughtGift(tx, {
        buyerId: order.buyerId,
        purchasedCardId: writes.card.id,
        orderId: order.id,
        request: order.gift,
      });
      await notify(tx, writes.news(gift));
    }
    return 'issued';
  });
}

/**
 * The buyer's "card bought" notification, with the purchase receipt as its mail: what was paid, for what,
 * the reference, and (bought as a gift) where the gift went.
 */
function boughtNotice(input: {
  order: OrderRow;
  cardId: string;
  businessName: string;
  value: string;
  paidAt: Date;
  gift: Awaited<ReturnType<typeof sendBoughtGift>> | null;
}): NewNotification {
  const { order, cardId, businessName, value, gift } = input;
  const recipient = order.gift?.recipient ?? '';
  const bought = `You bought a ${value} ${businessName} gift card`;
  const [title, body] = !gift
    ? ['Your gift card is ready', `${bought}.`]
    : gift.sent && gift.status === 'scheduled'
      ? [
          'Your gift is scheduled',
          `${bought} for ${recipient}. It will be sent on ${receiptTime.format(new Date(order.gift!.deliverAt!))} (UTC).`,
        ]
      : gift.sent
        ? ['Your gift card is on its way', `${bought} for ${recipient}. We sent it to them.`]
        : [
            'Your gift card is ready',
            `${bought}, but we could not send it to ${recipient}: ${gift.reason} The card is in My Gift Cards; you can send it from there.`,
          ];
  const path = gift?.sent ? `/gifts/${gift.giftId}` : `/user-dashboard/mycards/${cardId}`;
  return {
    accountId: order.buyerId,
    kind: 'card_bought',
    title,
    body,
    link: path,
    mail: {
      subject: `Your Giftmart receipt: ${businessName} gift card, ${value}`,
      heading: 'Thank you for your purchase',
      paragraphs: [
        `You paid ${value} for a ${businessName} gift card.`,
        `Reference: ${order.reference}`,
        `Paid: ${receiptTime.format(input.paidAt)} (UTC)`,
        ...(gift ? [body] : ['The card and its secret code are in My Gift Cards.']),
      ],
      action: { label: gift?.sent ? 'See your gift' : 'See your card', path },
    },
  };
}

const receiptTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/**
 * A business refunds an unused card (issue 10): in one transaction, under the card's lock then the
 * wallet's, the card is voided (its code dies), one balanced ledger entry takes the sale back out of the
 * wallet, the provider refunds the buyer, and the order becomes refunded. The provider is called last,
 * inside the transaction: if it refuses, nothing is written. Refused with the reason when the card was
 * used, is older than 30 days, or the wallet no longer holds its share.
 */
export async function refundCard(
  deps: PurchaseDeps,
  businessId: string,
  purchasedCardId: string,
  idempotencyKey?: string,
): Promise<{ card: SoldCard; replayed: boolean }> {
  const replayed = await deps.db
    .transaction(async (tx) => {
      const voided = await voidCardForRefund(tx, businessId, purchasedCardId, idempotencyKey);
      if (voided.replayed) return true;
      const order = await lockOrder(tx, voided.orderId);
      if (!order || order.status !== 'paid') {
        throw new AppError(
          'REFUND_NOT_ALLOWED',
          'This card’s order is not a paid order, so it cannot be refunded.',
        );
      }
      if (voided.ownerId !== order.buyerId) {
        // The buyer gave it away: refunding would take the recipient's card and pay the buyer.
        throw new AppError(
          'REFUND_NOT_ALLOWED',
          'This card was given as a gift and now belongs to someone else, so it cannot be refunded.',
        );
      }
      await recordRefund(tx, { orderId: order.id, businessId, currency: order.currency });
      await updateOrder(tx, order.id, { status: 'refunded', refundedAt: new Date() });
      const value = formatMoney({ amount: Number(order.amount), currency: order.currency });
      await notify(tx, [
        {
          accountId: voided.ownerId,
          kind: 'card_refunded',
          title: 'Your gift card was refunded',
          body: `The business refunded your ${value} gift card; the money goes back to how you paid. The card can no longer be used.`,
          link: `/user-dashboard/mycards/${purchasedCardId}`,
        },
      ]);
      try {
        await deps.payments.refund(order.reference, order.amount);
      } catch (error) {
        deps.log?.error({ err: error, reference: order.reference }, 'payment provider refund failed');
        throw new AppError(
          'PAYMENT_PROVIDER_ERROR',
          'The payment provider could not refund the buyer just now; nothing was changed. Try again in a moment.',
        );
      }
      deps.log?.info({ reference: order.reference, purchasedCardId }, 'card refunded');
      return false;
    })
    .catch((error: unknown) => {
      // A parallel request of this business wrote the same key first (another card's refund, a redemption).
      throw isIdempotencyKeyTaken(error) ? idempotencyConflict() : error;
    });
  return { card: await getSoldCard(deps.db, businessId, purchasedCardId), replayed };
}

/** The orders room's share of the provider's webhook: payment confirmations. */
export function paymentWebhookHandler(deps: PurchaseDeps): WebhookHandler {
  return {
    accept(rawBody, headers) {
      const event = deps.payments.parseWebhook(rawBody, headers);
      if (event.type === 'ignored') return null;
      return async (log) => {
        const result = await confirmPayment({ ...deps, log }, event);
        log.info({ event: event.type, reference: event.reference }, 'payment confirmation');
        return result;
      };
    },
  };
}
