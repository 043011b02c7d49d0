import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SalesDay } from '../../../shared/cards/sales';
import { formatMoney } from '../../../shared/money';

/**
 * The bars of Home's chart: money sold and redeemed per day, drawn with uPlot on a canvas. This module is
 * loaded on its own (React.lazy from Home), so the library never reaches the landing page or other screens.
 * The canvas is a picture; Home says the same figures in words and as a table.
 */

const SOLD_COLOUR = '#4f46e5'; // brand-600
const REDEEMED_COLOUR = '#d97706'; // amber-600
const HEIGHT_WIDE = 260;
const HEIGHT_PHONE = 200;
const HALF_DAY = 12 * 60 * 60;

const dayLabel = new Intl.DateTimeFormat('en-NG', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Per currency: its minor units' digits and its compact format, made once (an axis asks on every draw). */
const compactFormats = new Map<string, { digits: number; format: Intl.NumberFormat }>();

/** Minor units to a short axis label (₦12K, ₦1.5M): only for drawing, never for sums. */
function compactMoney(minor: number, currency: string): string {
  let made = compactFormats.get(currency);
  if (!made) {
    const digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    const format = new Intl.NumberFormat('en-NG', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    made = { digits, format };
    compactFormats.set(currency, made);
  }
  return made.format.format(minor / 10 ** made.digits);
}

/** A day "2026-11-23" as the chart's x (seconds); the labels are read back in UTC so the day never shifts. */
function dayToSeconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

export default function SalesChart({ days, currency }: { days: SalesDay[]; currency: string }) {
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = target.current;
    if (!node) return;
    const width = () => Math.max(240, Math.floor(node.clientWidth));
    const height = () => (node.clientWidth < 640 ? HEIGHT_PHONE : HEIGHT_WIDE);
    const data: uPlot.AlignedData = [
      days.map((d) => dayToSeconds(d.date)),
      days.map((d) => d.sold.amount),
      days.map((d) => d.redeemed.amount),
    ];
    const money = (_u: uPlot, value: number | null) =>
      value == null ? '–' : formatMoney({ amount: value, currency });
    // Two bars a day side by side: sold on the left of the day, redeemed on its right.
    const bars = (align: -1 | 1) => uPlot.paths.bars?.({ size: [0.4, 14], align, gap: 1 });
    const plot = new uPlot(
      {
        width: width(),
        height: height(),
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        legend: { live: true },
        // Half a day either side, so the first and last days' bars are drawn whole.
        scales: {
          x: { time: true, range: (_u, min, max) => [min - HALF_DAY, max + HALF_DAY] },
          y: { range: (_u, _min, max) => [0, Math.max(max, 100)] },
        },
        axes: [
          {
            stroke: '#475569',
            grid: { show: false },
            ticks: { stroke: '#cbd5e1' },
            values: (_u, splits) => splits.map((s) => dayLabel.format(new Date(s * 1000))),
          },
          {
            stroke: '#475569',
            size: 56,
            grid: { stroke: '#e2e8f0' },
            ticks: { show: false },
            values: (_u, splits) => splits.map((s) => compactMoney(s, currency)),
          },
        ],
        series: [
          {
            label: 'Day',
            value: (_u, ts) => (ts == null ? 'Day' : dayLabel.format(new Date(ts * 1000))),
          },
          {
            label: 'Sold',
            fill: SOLD_COLOUR,
            stroke: SOLD_COLOUR,
            paths: bars(-1),
            points: { show: false },
            width: 0,
            value: money,
          },
          {
            label: 'Redeemed',
            fill: REDEEMED_COLOUR,
            stroke: REDEEMED_COLOUR,
            paths: bars(1),
            points: { show: false },
            width: 0,
            value: money,
          },
        ],
      },
      data,
      node,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: height() }));
    resize.observe(node);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, currency]);

  return <div ref={target} data-testid="sales-chart" className="sales-chart w-full min-w-0" />;
}
