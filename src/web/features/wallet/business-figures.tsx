import { useQuery } from '@tanstack/react-query';
import { Component, lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PLATFORM_TIME_ZONE, type SalesDay, type SalesSummary } from '../../../shared/cards/sales';
import { formatMoney, type Money } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { ResponsiveTable } from '../../components/ui/responsive-table';
import { figuresKeys, getSalesDaily, getSalesSummary } from './figures-api';

// uPlot and its styles load only when Home draws the chart (see sales-chart.tsx).
const SalesChart = lazy(() => import('./sales-chart'));

/** Home's four figures: which total of the summary, and the list (sales or redemptions) it links to. */
const FIGURES = [
  { label: 'Sold today', of: 'soldToday', page: 'sales', since: 'today' },
  { label: 'Sold this month', of: 'soldThisMonth', page: 'sales', since: 'month' },
  { label: 'Redeemed today', of: 'redeemedToday', page: 'sales/redemptions', since: 'today' },
  { label: 'Redeemed this month', of: 'redeemedThisMonth', page: 'sales/redemptions', since: 'month' },
] as const;

/** Today and the first of this month as YYYY-MM-DD in the platform's time zone, for the figures' links. */
function platformDays(timeZone: string): { today: string; monthStart: string } {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(new Date())
    .slice(0, 10);
  return { today, monthStart: `${today.slice(0, 8)}01` };
}

function sum(values: Money[], currency: string): Money {
  return { amount: values.reduce((total, money) => total + money.amount, 0), currency };
}

/**
 * Home's "Outstanding" card, beside the balance: the balance still on sold, unexpired cards — what the
 * business has promised its customers.
 */
export function OutstandingCard() {
  const summary = useQuery({
    queryKey: figuresKeys.summary,
    queryFn: ({ signal }) => getSalesSummary(signal),
  });
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-sm font-semibold tracking-wide text-slate-700">
        Outstanding on cards
      </h2>
      <p className="mt-3 text-3xl font-bold tracking-tight text-slate-900 tabular-nums" aria-live="polite">
        {summary.isPending ? (
          <span className="text-lg font-medium text-slate-600">Loading…</span>
        ) : summary.isError ? (
          <span className="text-base font-medium text-red-700">We couldn’t load this figure.</span>
        ) : summary.data.outstanding.amount === 0 ? (
          <span className="text-xl">Nothing outstanding</span>
        ) : (
          formatMoney(summary.data.outstanding)
        )}
      </p>
      <p className="mt-2 text-sm text-slate-600">
        What your customers can still spend on the cards you sold (not used up or expired).
      </p>
      <Link
        to="/dashboard/sales?status=active"
        className="mt-auto pt-4 text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        See active cards
      </Link>
    </section>
  );
}

/** Home's four figures: sold and redeemed, today and this month, each opening the matching table. */
export function SalesFigures() {
  const summary = useQuery({
    queryKey: figuresKeys.summary,
    queryFn: ({ signal }) => getSalesSummary(signal),
  });
  const headingId = useId();
  let body;
  if (summary.isPending) {
    body = <FigureTiles />;
  } else if (summary.isError) {
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-red-800">
        <span>We couldn’t load your figures. {summary.error.message}</span>
        <Button variant="secondary" onClick={() => summary.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = <FigureTiles summary={summary.data} />;
  }
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Sales and redemptions
      </h2>
      <div className="mt-4">{body}</div>
    </section>
  );
}

/** A figure's amount; zero in words (the only ₦ figure on a new business's Home stays its hidden balance). */
function FigureValue({ money }: { money?: SalesSummary['soldToday'] }) {
  if (!money) {
    return (
      <span className="text-slate-300" aria-hidden="true">
        …
      </span>
    );
  }
  return money.amount === 0 ? 'None yet' : formatMoney(money);
}

/**
 * The four figures, each a link to its sales or redemptions. Without a summary (still loading) the same
 * tiles stand empty, so the sections below do not move when the figures arrive.
 */
function FigureTiles({ summary }: { summary?: SalesSummary }) {
  const { today, monthStart } = platformDays(summary?.timeZone || PLATFORM_TIME_ZONE);
  const tileClass =
    'flex h-full min-w-0 flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm md:p-5';
  return (
    <>
      {summary ? null : (
        <p role="status" className="sr-only">
          Loading your figures…
        </p>
      )}
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4" aria-busy={!summary || undefined}>
        {FIGURES.map((figure) => {
          const money = summary?.[figure.of];
          const content = (
            <>
              <span className="text-sm font-medium text-slate-600">{figure.label}</span>
              {/* A space, so the link's name reads "Sold today ₦5,000.00". */}{' '}
              <span className="mt-1 text-lg font-bold break-words text-slate-900 tabular-nums md:text-2xl">
                <FigureValue money={money} />
              </span>
            </>
          );
          return (
            <li key={figure.label}>
              {summary ? (
                <Link
                  to={`/dashboard/${figure.page}?from=${figure.since === 'today' ? today : monthStart}&to=${today}`}
                  className={`${tileClass} transition hover:border-brand-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600`}
                >
                  {content}
                </Link>
              ) : (
                <div className={tileClass}>{content}</div>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Home's chart of money sold and redeemed per day, for the last 30 or 90 days, with its figures in words. */
export function SalesChartSection() {
  const [days, setDays] = useState<30 | 90>(30);
  const headingId = useId();
  const daily = useQuery({
    queryKey: figuresKeys.daily(days),
    queryFn: ({ signal }) => getSalesDaily(days, signal),
    placeholderData: (previous) => previous,
  });

  let body;
  if (daily.isPending) {
    // The loaded layout's line and chart box, so nothing below moves when the figures arrive.
    body = (
      <>
        <p className={CHART_LINE}>Loading the last {days} days…</p>
        <div className={CHART_BOX}>
          <ChartPlaceholder text="Loading the chart…" />
        </div>
      </>
    );
  } else if (daily.isError) {
    body = (
      <div role="alert" className="flex min-h-52 flex-wrap items-center justify-center gap-3 text-red-800">
        <span>We couldn’t load the chart. {daily.error.message}</span>
        <Button variant="secondary" onClick={() => daily.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    const rows = daily.data.days;
    const currency = rows[0]?.sold.currency ?? 'NGN';
    const sold = sum(
      rows.map((d) => d.sold),
      currency,
    );
    const redeemed = sum(
      rows.map((d) => d.redeemed),
      currency,
    );
    const quiet = sold.amount === 0 && redeemed.amount === 0;
    body = (
      <>
        <p className={CHART_LINE} aria-live="polite">
          {quiet ? (
            `Nothing sold or redeemed in the last ${days} days yet: each day’s sales and redemptions show here as bars.`
          ) : (
            <>
              Last {days} days: <strong className="font-semibold text-slate-900">{formatMoney(sold)}</strong>{' '}
              sold and <strong className="font-semibold text-slate-900">{formatMoney(redeemed)}</strong>{' '}
              redeemed.
            </>
          )}
        </p>
        <div aria-hidden="true" className={CHART_BOX}>
          <ChartBoundary>
            <Suspense fallback={<ChartPlaceholder text="Drawing the chart…" />}>
              <SalesChart days={rows} currency={currency} />
            </Suspense>
          </ChartBoundary>
        </div>
        {quiet ? null : <DailyTable days={rows} />}
      </>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={daily.isFetching || undefined}
      className="@container mt-8 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm md:p-6"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Sold and redeemed per day
        </h2>
        <div
          role="group"
          aria-label="Days shown"
          className="inline-flex rounded-lg border border-slate-300 p-0.5"
        >
          {([30, 90] as const).map((n) => (
            <button
              key={n}
              type="button"
              aria-pressed={days === n}
              onClick={() => setDays(n)}
              className={`rounded-md px-3 py-1.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                days === n ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'
              }`}
            >
              {n} days
            </button>
          ))}
        </div>
      </div>
      {body}
    </section>
  );
}

/**
 * The drawn chart's height with its legend (sales-chart.tsx: 200 px of plot under 640 px of width, else 260,
 * and the legend below), kept while it loads and draws so the sections below it do not jump.
 */
const CHART_BOX = 'mt-4 flex min-h-[260px] flex-col @min-[640px]:min-h-[290px]';

/** The line above the chart: room for the longest (the quiet one) on a phone, one line on a wider screen. */
const CHART_LINE = 'min-h-15 text-sm text-slate-700 @min-[640px]:min-h-5';

/**
 * A chart that cannot be drawn leaves the rest of Home working: its code failed to come, or uPlot failed as it
 * loaded (it formats numbers in the browser's language, and Chromium started with LANG=C reports "en-US@posix",
 * which Intl refuses). The figures are still in words above it, and day by day in the table below it.
 */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? (
      <ChartPlaceholder text="The chart could not be drawn in this browser." />
    ) : (
      this.props.children
    );
  }
}

function ChartPlaceholder({ text }: { text: string }) {
  return (
    <div
      role="status"
      className="flex flex-1 items-center justify-center rounded-xl bg-slate-50 text-slate-600"
    >
      {text}
    </div>
  );
}

/** The chart's figures as a table, folded away: what a screen reader (or anyone) can read day by day. */
function DailyTable({ days }: { days: SalesDay[] }) {
  const dayFormat = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeZone: 'UTC' });
  const newestFirst = [...days].reverse();
  return (
    <details className="mt-4 text-sm">
      <summary className="cursor-pointer font-semibold text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
        Show the figures day by day
      </summary>
      <div className="mt-3">
        <ResponsiveTable
          label="Sold and redeemed per day, newest first"
          rows={newestFirst}
          rowKey={(day) => day.date}
          columns={[
            {
              key: 'date',
              header: 'Day',
              cell: (day) => dayFormat.format(new Date(`${day.date}T00:00:00Z`)),
              phone: 'title',
            },
            {
              key: 'sold',
              header: 'Sold',
              cell: (day) => formatMoney(day.sold),
              align: 'right',
            },
            {
              key: 'redeemed',
              header: 'Redeemed',
              cell: (day) => formatMoney(day.redeemed),
              align: 'right',
            },
          ]}
        />
      </div>
    </details>
  );
}
