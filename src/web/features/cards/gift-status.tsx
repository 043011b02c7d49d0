import type { GiftStatus } from '../../../shared/cards/gifts';

export const giftStatusLabels: Record<GiftStatus, string> = {
  scheduled: 'Scheduled',
  pending: 'Waiting',
  accepted: 'Accepted',
  declined: 'Declined',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

const styles: Record<GiftStatus, string> = {
  scheduled: 'bg-sky-100 text-sky-900 ring-sky-600/20',
  pending: 'bg-violet-100 text-violet-900 ring-violet-600/20',
  accepted: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  declined: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  expired: 'bg-amber-100 text-amber-900 ring-amber-600/20',
};

/** A gift's status as a small pill, like a card's (dark text on a light fill). */
export function GiftStatusBadge({ status, className = '' }: { status: GiftStatus; className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${styles[status]} ${className}`}
    >
      {giftStatusLabels[status]}
    </span>
  );
}

/** Who a gift is for, as its sender typed it: "Ada (ada@example.com)" or "ada@example.com". */
export function recipientLabel(gift: { recipient: string; recipientName: string | null }): string {
  return gift.recipientName ? `${gift.recipientName} (${gift.recipient})` : gift.recipient;
}
