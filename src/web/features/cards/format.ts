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
type ActivityKind = PurchasedCardDetail['activities'][number]['kind'];

export const statusLabels: Record<Status, string> = {
  active: 'Active',
  redeemed: 'Redeemed',
  expired: 'Expired',
  void: 'Void',
};

export const activityLabels: Record<ActivityKind, string> = {
  issue: 'Issued',
  redeem: 'Redeemed',
  refund: 'Refunded',
  adjust: 'Adjusted',
  void: 'Voided',
  transfer: 'Transferred',
};

/** The masked code: only the last four characters of the body show. */
export function maskedCode(last4: string): string {
  return `••••-••••-••••-${last4}`;
}
