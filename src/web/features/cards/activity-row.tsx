import type { CardActivity } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { activityLabel, formatDateTime, formatSignedMoney } from './format';

/**
 * One change to a card's balance: what happened (with place and reference), the signed amount, when, and
 * the balance after it; a redemption that was later reversed is marked and its amount struck through.
 * Two lines, each with its own two ends, so a long place name never squeezes the numbers on a phone.
 */
export function ActivityRow({
  activity,
  viewer,
  className = '',
}: {
  activity: CardActivity;
  viewer: 'holder' | 'business';
  className?: string;
}) {
  const tone =
    activity.amount.amount > 0
      ? 'text-emerald-700'
      : activity.amount.amount < 0
        ? 'text-red-700'
        : 'text-slate-900';
  return (
    <li className={className}>
      <div className="flex items-start justify-between gap-4">
        <p className="min-w-0 font-semibold break-words text-slate-900">
          {activityLabel(activity, viewer)}
          {activity.reversed ? (
            <span className="ml-2 inline-flex items-center rounded-full bg-slate-100 px-2 py-0.5 align-middle text-xs font-semibold text-slate-700 ring-1 ring-slate-500/20 ring-inset">
              Reversed
            </span>
          ) : null}
        </p>
        <p
          className={`shrink-0 font-semibold tabular-nums ${tone} ${activity.reversed ? 'line-through decoration-slate-400' : ''}`}
        >
          {formatSignedMoney(activity.amount)}
        </p>
      </div>
      <div className="mt-0.5 flex flex-wrap items-baseline justify-between gap-x-4 text-sm text-slate-600">
        <time dateTime={activity.createdAt}>{formatDateTime(activity.createdAt)}</time>
        <span>
          Balance after{' '}
          <span className="font-medium text-slate-800 tabular-nums">
            {formatMoney(activity.balanceAfter)}
          </span>
        </span>
      </div>
    </li>
  );
}
