import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { parseCode } from '../../../shared/cards/codes';
import {
  REVERSAL_WINDOW_HOURS,
  redeemMessages,
  type RedeemRequest,
  type Redemption,
  type SoldCard,
} from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { consume, refuseOverBudget, type Limit } from '../../lib/rate-limiter';
import { runPeriodically } from '../../lib/periodic';
import { notify, type NewNotification } from '../notifications/notifications.service';
import { effectiveStatus, money, soldCardView, stateWords, type CardsDeps } from './cards.service';
import {
  cardNewsWaiting,
  findActivity,
  findActivityByIdempotencyKey,
  findActivityView,
  findCardAndKeyedActivity,
  findPurchasedCard,
  lockCard,
  spendCardByCode,
  takeCardNews,
  writeActivity,
  type ActivityRow,
  type CardNewsRow,
  type CardRow,
  type NewActivity,
  type WrittenActivity,
} from './cards.repository';

/**
 * Spending a card at the till (issue 10). A look-up or redemption first spends one try of the business's and
 * the IP's budgets (counted atomically, before the code is even parsed, so parallel guesses cannot slip
 * past); then every failure to find a card of this business gets one answer. A redemption writes the activity
 * (amount, balance after, who, reference) and the new balance in one statement, under the card's lock, only
 * when the card may be spent (see `redeem`); the database checks that they agree. The holder hears of it a
 * moment after it commits (`deliverCardNews`, ADR 024).
 */

const HOUR_MS = 60 * 60 * 1000;

/** The business at the till (its name goes on the receipt, so it is not read again). */
export interface Caller {
  businessId: string;
  businessName: string;
  ip: string;
}

function lookupLimits(deps: CardsDeps, caller: Caller): Limit[] {
  return [
    {
      key: `code-lookup:account:${caller.businessId}`,
      max: deps.config.CODE_LOOKUPS_PER_MINUTE_PER_ACCOUNT,
      windowSeconds: 60,
    },
    {
      key: `code-lookup:ip:${caller.ip}`,
      max: deps.config.CODE_LOOKUPS_PER_MINUTE_PER_IP,
      windowSeconds: 60,
    },
  ];
}

const codeNotFound = () => new AppError('CARD_CODE_NOT_FOUND', redeemMessages.notFound);
const tooManyLookUps = 'Too many code look-ups.';

/** Counts the try, then reads the code; answers the code's keyed hash, or the one "not found" answer. */
async function spendTryAndHash(deps: CardsDeps, caller: Caller, code: string): Promise<string> {
  await consume(deps.db, lookupLimits(deps, caller), tooManyLookUps);
  const hash = codeHashOf(deps, code);
  if (!hash) throw codeNotFound();
  return hash;
}

/** The keyed hash of what was typed, or undefined when it cannot be a code. */
function codeHashOf(deps: CardsDeps, code: string): string | undefined {
  const parsed = parseCode(code);
  return parsed.ok ? deps.codes.hash(parsed.body) : undefined;
}

/** The till's look-up: the card, its balance, status, expiry and last uses; only this business's cards. */
export async function lookUpCard(deps: CardsDeps, caller: Caller, code: string): Promise<SoldCard> {
  const hash = await spendTryAndHash(deps, caller, code);
  const row = await findPurchasedCard(deps.db, hash, 'codeHash');
  if (!row || row.card.businessId !== caller.businessId || row.card.status === 'void') throw codeNotFound();
  return soldCardView(deps.db, row);
}

/** Thrown inside a transaction when the Idempotency-Key was already used for the same request. */
class Replay {
  constructor(readonly id: string) {}
}

function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** A retry with the same Idempotency-Key: the first answer, or 409 when the request differs. */
function replayOrConflict(existing: ActivityRow, hash: string): string {
  if (existing.requestHash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
    );
  }
  return existing.id;
}

/**
 * Runs `work` (which writes an activity carrying the key); a retry with a key already used answers what the
 * first request wrote. The key's unique index decides between parallel requests: the second one's write
 * waits for the first and then writes nothing (see writeActivity), so it replays.
 */
async function withIdempotency(work: () => Promise<string>): Promise<{ id: string; replayed: boolean }> {
  try {
    return { id: await work(), replayed: false };
  } catch (error) {
    if (error instanceof Replay) return { id: error.id, replayed: true };
    throw error;
  }
}

/**
 * Runs the request's checks under the card's lock. When one refuses, a retry of a request that was made (the
 * key already used) answers with the first result instead: a spent card still replays its last redemption.
 */
async function replayBeforeRefusal<T>(
  tx: DbOrTx,
  actorId: string,
  key: string | undefined,
  hash: string,
  check: () => T | Promise<T>,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    const existing = key ? await findActivityByIdempotencyKey(tx, actorId, key) : undefined;
    if (existing) throw new Replay(replayOrConflict(existing, hash));
    throw error;
  }
}

/** The activity and the card's new state in one round trip; a key used before answers the first request. */
async function writeKeyedActivity(
  tx: DbOrTx,
  row: NewActivity & { actorId: string; requestHash: string },
  card: Parameters<typeof writeActivity>[2],
): Promise<WrittenActivity> {
  const activity = await writeActivity(tx, row, card);
  if (activity) return activity;
  const existing = await findActivityByIdempotencyKey(tx, row.actorId, row.idempotencyKey!);
  if (!existing) throw new Error(`activity with key ${row.idempotencyKey} neither written nor found`);
  throw new Replay(replayOrConflict(existing, row.requestHash));
}

/** Refuses a card that cannot be spent now, saying why. */
function assertRedeemable(card: CardRow): void {
  const status = effectiveStatus(card);
  if (status === 'active') return;
  const message =
    status === 'frozen'
      ? 'This card is frozen by its holder. Ask them to unfreeze it in Giftmart, then try again.'
      : status === 'blocked'
        ? `This card is blocked${card.blockedReason ? ` (${card.blockedReason})` : ''}. Unblock it first if it was found.`
        : status === 'expired'
          ? `This card expired on ${card.expiresAt!.toISOString().slice(0, 10)}.`
          : stateWords(status, 'This card cannot be used.');
  throw new AppError('CARD_NOT_REDEEMABLE', message, { details: { status } });
}

/** How many times a redemption reads and decides again when the card changed under it (another till). */
const SPEND_TRIES = 50;

/**
 * Issue 14: a redemption is one statement (ADR 025, `spendCardByCode`): the tries spent, and the card locked
 * and spent when the database finds it may be (budget, business, status, expiry, balance). When nothing was
 * written, the card is read (with this key's activity, if any) and says why, in the words below. If it says
 * nothing is wrong, the card changed meanwhile (or the same key is being written): then the redemption is
 * decided on the card as read and written only if the card is still as read (ADR 017), reading and deciding
 * again until it is. No lock is held across round trips; the holder's news follows the commit (ADR 024).
 */
export async function redeem(
  deps: CardsDeps,
  caller: Caller,
  input: RedeemRequest,
  idempotencyKey?: string,
): Promise<{ redemption: Redemption; replayed: boolean }> {
  const limits = lookupLimits(deps, caller);
  // A code that cannot be one spends its try alone; any other spends it in the same statement as the read.
  const codeHash = codeHashOf(deps, input.code);
  if (!codeHash) {
    await consume(deps.db, limits, tooManyLookUps);
    throw codeNotFound();
  }
  const hash = requestHash({
    codeHash,
    amount: input.amount ?? null,
    all: input.all ?? false,
    reference: input.reference ?? null,
  });
  // First, one statement: the tries spent, and the redemption written when the card allows it.
  const spent = await spendCardByCode(deps.db, {
    limits,
    codeHash,
    actorId: caller.businessId,
    key: idempotencyKey,
    amount: input.all ? null : BigInt(input.amount!),
    reference: input.reference || null,
    requestHash: hash,
  });
  refuseOverBudget(limits, spent.counted, tooManyLookUps);
  if (spent.written) {
    const { written } = spent;
    const redemption = toRedemption(
      { ...written, kind: 'redeem', amount: -written.amount, purchasedCardId: written.card.id },
      written.card,
      caller.businessName,
      null,
    );
    return { redemption, replayed: false };
  }
  for (let attempt = 0; attempt < SPEND_TRIES; attempt += 1) {
    const { card, keyed } = await findCardAndKeyedActivity(
      deps.db,
      codeHash,
      caller.businessId,
      idempotencyKey,
    );
    // Not written: say why, from the card as read.
    if (!card || card.businessId !== caller.businessId || card.status === 'void') throw codeNotFound();
    // A retry of a redemption that was made answers it, even once the card cannot be spent any more.
    if (keyed) {
      const id = replayOrConflict(keyed, hash);
      return { redemption: await getRedemption(deps, caller.businessId, id), replayed: true };
    }
    assertRedeemable(card);
    const amount = input.all ? card.balance : BigInt(input.amount!);
    if (amount > card.balance) {
      throw new AppError(
        'CARD_BALANCE_TOO_LOW',
        `This card has only ${formatMoney(money(card.balance, card.currency))} left.`,
        { details: { balance: money(card.balance, card.currency) } },
      );
    }
    // The card allows it as read, yet the statement did not write it: it changed meanwhile, or another
    // request with the same key is being written. Write it only if the card is still as read, else read it
    // again and decide again.
    const balanceAfter = card.balance - amount;
    const activity = await writeActivity(
      deps.db,
      {
        purchasedCardId: card.id,
        kind: 'redeem',
        amount: -amount,
        balanceAfter,
        actorId: caller.businessId,
        reference: input.reference || null,
        idempotencyKey: idempotencyKey ?? null,
        requestHash: hash,
      },
      { balance: balanceAfter, status: balanceAfter === 0n ? 'redeemed' : 'active' },
      // The holder's news follows the commit (deliverCardNews).
      { seen: card },
    );
    if (!activity) continue;
    // The answer is known here (reading it back cost two more round trips); a replay reads it.
    const redemption = toRedemption(
      { ...activity, kind: 'redeem', amount: -amount, balanceAfter, purchasedCardId: card.id },
      card,
      caller.businessName,
      null,
    );
    return { redemption, replayed: false };
  }
  throw new AppError(
    'CARD_STATE_CONFLICT',
    'This card is being used somewhere else right now. Wait a moment, then try again.',
  );
}

/** ★ "Your card was just used" (and "given back" for a reversal): amount, place and balance left. */
function holderNews({ kind, amount, balanceAfter, card, place }: CardNewsRow): NewNotification {
  const amountText = formatMoney(money(amount, card.currency));
  const left = formatMoney(money(balanceAfter, card.currency));
  return kind === 'redeem'
    ? {
        accountId: card.ownerId,
        kind: 'card_redeemed',
        title: 'Your card was just used',
        body: `${amountText} was spent at ${place}. ${left} is left on the card. Not you? Freeze the card now.`,
        link: `/user-dashboard/mycards/${card.id}`,
        mail: {
          subject: 'Your Giftmart card was just used',
          heading: 'Your card was just used',
          paragraphs: [
            `${amountText} was spent at ${place}. ${left} is left on the card.`,
            'Not you? Freeze the card now: nobody can spend it until you unfreeze it.',
          ],
          action: { label: 'See or freeze the card', path: `/user-dashboard/mycards/${card.id}` },
        },
      }
    : {
        accountId: card.ownerId,
        kind: 'card_reversed',
        title: 'A use of your card was reversed',
        body: `${place} gave back ${amountText}. ${left} is on the card now.`,
        link: `/user-dashboard/mycards/${card.id}`,
      };
}

/** How often each instance looks for uses whose news is still to be written (ADR 024). */
export const CARD_NEWS_INTERVAL_MS = 250;

/**
 * Writes the holder's news of the redemptions and reversals committed since the last run (ADR 024): one
 * transaction for all of them, after theirs, so the money's transaction carries no notification, mail or
 * NOTIFY. Any instance may run it at any time; when another is running it, this one leaves it (`wait`:
 * waits for it instead). Answers how many were written.
 */
export async function deliverCardNews(
  deps: Pick<CardsDeps, 'db'>,
  options: { wait?: boolean } = {},
): Promise<number> {
  if (!(await cardNewsWaiting(deps.db))) return 0;
  return deps.db.transaction(async (tx) => {
    const taken = await takeCardNews(tx, options.wait);
    if (!taken || taken.length === 0) return 0;
    await notify(tx, taken.map(holderNews));
    return taken.length;
  });
}

/** Writes the news of card uses now and every `intervalMs`, so a holder hears of a use within a moment. */
export function startCardNewsWorker(
  deps: Pick<CardsDeps, 'db'> & { log?: FastifyBaseLogger },
  intervalMs = CARD_NEWS_INTERVAL_MS,
): () => Promise<void> {
  return runPeriodically(
    () => deliverCardNews(deps),
    intervalMs,
    (error) => deps.log?.error({ err: error }, 'card news failed'),
  );
}

/** One redemption (or reversal) of this business, as its receipt shows it. */
export async function getRedemption(deps: CardsDeps, businessId: string, id: string): Promise<Redemption> {
  const view = await findActivityView(deps.db, id);
  const a = view?.activity;
  if (!view || !a || a.actorId !== businessId || (a.kind !== 'redeem' && a.kind !== 'reverse')) {
    throw notFound('That redemption');
  }
  const row = (await findPurchasedCard(deps.db, a.purchasedCardId))!;
  return toRedemption({ ...a, kind: a.kind }, row.card, row.businessName, view.reversedAt);
}

/** A redemption (or reversal) as its receipt shows it: reversible for 24 hours unless reversed or voided. */
function toRedemption(
  a: Pick<ActivityRow, 'id' | 'amount' | 'balanceAfter' | 'purchasedCardId' | 'reference' | 'createdAt'> & {
    kind: 'redeem' | 'reverse';
  },
  card: Pick<CardRow, 'currency' | 'codeLast4' | 'status'>,
  businessName: string,
  reversedAt: Date | null,
): Redemption {
  const until = new Date(a.createdAt.getTime() + REVERSAL_WINDOW_HOURS * HOUR_MS);
  return {
    id: a.id,
    kind: a.kind,
    amount: money(a.amount < 0n ? -a.amount : a.amount, card.currency),
    balanceAfter: money(a.balanceAfter, card.currency),
    purchasedCardId: a.purchasedCardId,
    reference: a.reference,
    codeLast4: card.codeLast4,
    businessName,
    reversedAt: reversedAt?.toISOString() ?? null,
    reversibleUntil:
      a.kind === 'redeem' && !reversedAt && until > new Date() && card.status !== 'void'
        ? until.toISOString()
        : null,
    createdAt: a.createdAt.toISOString(),
  };
}

/**
 * Gives a redemption made by mistake back to the card, within 24 hours: a new activity (never a deletion)
 * that names the one it reverses; the unique index on that name allows one reversal per redemption.
 */
export async function reverseRedemption(
  deps: CardsDeps,
  caller: Pick<Caller, 'businessId' | 'businessName'>,
  redemptionId: string,
  idempotencyKey?: string,
): Promise<{ redemption: Redemption; replayed: boolean }> {
  const { businessId } = caller;
  const hash = requestHash({ reverse: redemptionId });
  const result = await withIdempotency(async () => {
    try {
      return await deps.db.transaction(async (tx) => {
        const original = await findActivity(tx, redemptionId);
        if (!original || original.actorId !== businessId || original.kind !== 'redeem') {
          throw notFound('That redemption');
        }
        const card = (await lockCard(tx, original.purchasedCardId))!;
        // A retry of a reversal that was made answers it rather than "already reversed".
        await replayBeforeRefusal(tx, businessId, idempotencyKey, hash, async () => {
          const view = await findActivityView(tx, redemptionId);
          if (view?.reversedAt) {
            throw new AppError('REVERSAL_NOT_ALLOWED', 'This redemption was already reversed.');
          }
          if (original.createdAt.getTime() + REVERSAL_WINDOW_HOURS * HOUR_MS <= Date.now()) {
            throw new AppError(
              'REVERSAL_NOT_ALLOWED',
              `A redemption can be reversed only within ${REVERSAL_WINDOW_HOURS} hours.`,
            );
          }
          if (card.status === 'void') {
            throw new AppError(
              'REVERSAL_NOT_ALLOWED',
              'This card was refunded; its redemptions stay as they are.',
            );
          }
        });
        const amount = -original.amount;
        const balanceAfter = card.balance + amount;
        const activity = await writeKeyedActivity(
          tx,
          {
            purchasedCardId: card.id,
            kind: 'reverse',
            amount,
            balanceAfter,
            actorId: businessId,
            reference: original.reference,
            reversesId: original.id,
            idempotencyKey: idempotencyKey ?? null,
            requestHash: hash,
          },
          card.status === 'redeemed'
            ? { balance: balanceAfter, status: 'active' }
            : { balance: balanceAfter },
        );
        return activity.id;
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
      if (cause?.code === '23505' && cause.constraint === 'card_activities_reverses_unique') {
        throw new AppError('REVERSAL_NOT_ALLOWED', 'This redemption was already reversed.');
      }
      throw error;
    }
  });
  return { redemption: await getRedemption(deps, businessId, result.id), replayed: result.replayed };
}
