import type { OrderListStatus } from '../../../shared/orders/schemas';

export const orderStatusLabels: Record<OrderListStatus, string> = {
  paid: 'Paid',
  pending: 'Pending',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

const styles: Record<OrderListStatus, string> = {
  paid: 'bg-emerald-100 text-emerald-800 ring-emerald-600/20',
  pending: 'bg-amber-100 text-amber-900 ring-amber-600/20',
  failed: 'bg-red-100 text-red-800 ring-red-600/20',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  refunded: 'bg-sky-100 text-sky-900 ring-sky-600/20',
};

/** An order's state as a small pill (dark text on a light fill). */
export function OrderStatusBadge({ status }: { status: OrderListStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${styles[status]}`}
    >
      {orderStatusLabels[status]}
    </span>
  );
}
