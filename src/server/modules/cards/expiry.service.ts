import { formatMoney } from '../../../shared/money';
import { runPeriodically } from '../../lib/periodic';
import { notify } from '../notifications/notifications.service';
import { money, type CardsDeps } from './cards.service';
import { claimExpiryReminders, lockDueExpiries, writeStateChange } from './cards.repository';

export const EXPIRY_REMINDER_DAYS = 7;
const BATCH = 200;

/**
 * The daily expiry job: cards past their expiry become expired (an activity of amount 0 records it; the
 * balance stays on the record, it can no longer be spent), and live cards that expire within 7 days get
 * one reminder. Rows are claimed with SKIP LOCKED / UPDATE … RETURNING, so two app instances running the
 * job at once neither skip nor repeat a card. Answers what it did.
 */
export async function runExpiryJob(deps: CardsDeps): Promise<{ expired: number; reminded: number }> {
  let expired = 0;
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await lockDueExpiries(tx, BATCH);
      for (const card of due) {
        await writeStateChange(tx, card, { kind: 'expire' }, { status: 'expired' });
        if (card.balance > 0n) {
          await notify(tx, [
            {
              accountId: card.ownerId,
              kind: 'card_expired',
              title: 'Your gift card has expired',
              body: `Your card with ${formatMoney(money(card.balance, card.currency))} on it expired and can no longer be spent.`,
              link: `/user-dashboard/mycards/${card.id}`,
            },
          ]);
        }
      }
      return due.length;
    });
    expired += done;
    if (done < BATCH) break;
  }
  let reminded = 0;
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const cards = await claimExpiryReminders(tx, EXPIRY_REMINDER_DAYS, BATCH);
      await notify(
        tx,
        cards.map((card) => ({
          accountId: card.ownerId,
          kind: 'card_expiring' as const,
          title: 'Your gift card expires in 7 days',
          body: `${formatMoney(money(card.balance, card.currency))} is still on your card; spend it before ${card.expiresAt!.toISOString().slice(0, 10)}.`,
          link: `/user-dashboard/mycards/${card.id}`,
          mail: {
            subject: 'Your Giftmart card expires in 7 days',
            heading: 'Your gift card expires in 7 days',
            paragraphs: [
              `${formatMoney(money(card.balance, card.currency))} is still on your card; spend it before ${card.expiresAt!.toISOString().slice(0, 10)}.`,
              'After that day it can no longer be spent.',
            ],
            action: { label: 'See the card', path: `/user-dashboard/mycards/${card.id}` },
          },
        })),
      );
      return cards.length;
    });
    reminded += done;
    if (done < BATCH) break;
  }
  if (expired || reminded) deps.log?.info({ expired, reminded }, 'card expiry job');
  return { expired, reminded };
}

/** Runs the expiry job now and then every `intervalMs` (an hour by default; the work is daily in effect). */
export function startExpiryWorker(deps: CardsDeps, intervalMs = 60 * 60 * 1000): () => Promise<void> {
  return runPeriodically(
    () => runExpiryJob(deps),
    intervalMs,
    (error) => deps.log?.error({ err: error }, 'card expiry job failed'),
  );
}
