import type { PurchasedCard, PurchasedCardDetail } from '../../../shared/cards/schemas';
import { formatMoney, type Money } from '../../../shared/money';

const dateFormat = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short' });

/** "3 May 2026" */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** "3 May 2026, 14:05" */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

/** A balance change with its sign: "+₦5,000.00", "−₦1,200.00". */
export function formatSignedMoney(money: Money): string {
  if (money.amount > 0) return `+${formatMoney(money)}`;
  if (money.amount < 0) return `−${formatMoney({ ...money, amount: -money.amount })}`;
  return formatMoney(money);
}

type Status = PurchasedCard['status'];
type Activity = PurchasedCardDetail['activities'][number];
type ActivityKind = Activity['kind'];

export const statusLabels: Record<Status, string> = {
  active: 'Active',
  redeemed: 'Used up',
  expired: 'Expired',
  void: 'Void',
  frozen: 'Frozen',
  blocked: 'Blocked',
  gift_pending: 'Gift pending',
};

/** The short name of each kind of activity (screen readers and compact lists). */
export const activityLabels: Record<ActivityKind, string> = {
  issue: 'Issued',
  redeem: 'Redeemed',
  reverse: 'Reversed',
  refund: 'Refunded',
  expire: 'Expired',
  block: 'Blocked',
  unblock: 'Unblocked',
  freeze: 'Frozen',
  unfreeze: 'Unfrozen',
  adjust: 'Adjusted',
  void: 'Voided',
  transfer: 'Received as a gift',
  gift_sent: 'Sent as a gift',
  gift_returned: 'Gift returned',
};

/**
 * What happened, in words, for the holder's history and the till's last uses: "Redeemed at Mama Put
 * Kitchen (ref T-0042)", "Blocked by Mama Put Kitchen", "Frozen by you". `viewer` says who reads it: the
 * holder froze their own card; a business sees "Frozen by the holder".
 */
export function activityLabel(activity: Activity, viewer: 'holder' | 'business' = 'holder'): string {
  const at = activity.placeName ? ` at ${activity.placeName}` : '';
  const by = activity.placeName ? ` by ${activity.placeName}` : '';
  const ref = activity.reference ? ` (ref ${activity.reference})` : '';
  switch (activity.kind) {
    case 'redeem':
      return `Redeemed${at}${ref}`;
    case 'reverse':
      return `Reversed${by}: a redemption given back${ref}`;
    case 'block':
      return `Blocked${by}${ref}`;
    case 'unblock':
      return `Unblocked${by}`;
    case 'freeze':
      return viewer === 'holder' ? 'Frozen by you' : 'Frozen by the holder';
    case 'unfreeze':
      return viewer === 'holder' ? 'Unfrozen by you' : 'Unfrozen by the holder';
    case 'refund':
      return `Refunded${by}`;
    default:
      return activityLabels[activity.kind];
  }
}

/** The short masked code for lists and receipts: "•••• 7Q4K". */
export function shortMaskedCode(last4: string): string {
  return `•••• ${last4}`;
}

/** The masked code: only the last four characters of the body show. */
export function maskedCode(last4: string): string {
  return `••••-••••-••••-${last4}`;
}
