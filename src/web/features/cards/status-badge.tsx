import type { PurchasedCard } from '../../../shared/cards/schemas';
import { statusLabels } from './format';

const styles: Record<PurchasedCard['status'], string> = {
  active: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  redeemed: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  expired: 'bg-amber-100 text-amber-900 ring-amber-600/20',
  void: 'bg-red-100 text-red-800 ring-red-600/20',
  frozen: 'bg-sky-100 text-sky-900 ring-sky-600/20',
  blocked: 'bg-red-100 text-red-800 ring-red-600/20',
  gift_pending: 'bg-violet-100 text-violet-900 ring-violet-600/20',
};

/** A purchased card's status as a small pill (dark text on a light fill, readable anywhere). */
export function StatusBadge({
  status,
  className = '',
}: {
  status: PurchasedCard['status'];
  className?: string;
}) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${styles[status]} ${className}`}
    >
      {statusLabels[status]}
    </span>
  );
}
