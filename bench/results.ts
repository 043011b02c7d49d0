import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/**
 * `bench/results.json` (ignored by git): what `npm run bench` leaves behind for other tools. Each benchmark
 * merges its own key, so running one benchmark keeps the others' last figures.
 *
 * Shape (issue 14): `catalogue`, `purchases`, `withdrawals`, `redemptions` each a {@link PathResult};
 * `growth: { purchases, catalogue }` (1M ÷ 1k ratios; `catalogue` is the two catalogues' first pages
 * loaded in turns, seconds apart; `purchases` is the purchases' share of TPC-B at each size, 1M over 1k, and
 * `purchasesUnanchored` the plain ratio of the two sizes' rates); `lighthouse.landing` /
 * `lighthouse.catalogue` each `{ performance, accessibility, fcpMs }`; `landingJsGzipKb`.
 */
export const RESULTS_FILE = 'bench/results.json';

export interface PathResult {
  /** requests (or completed operations) per second */
  rate: number;
  /** what the rate is compared with, measured in the same run */
  anchorName: string;
  anchorRate: number;
  /** rate ÷ anchorRate */
  ratio: number;
  p99Ms: number;
  /** the app process's peak resident memory during the load, MiB */
  rssMb: number;
}

export function recordResult(key: string, value: unknown): void {
  const current: Record<string, unknown> = existsSync(RESULTS_FILE)
    ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>)
    : {};
  const previous = current[key];
  current[key] =
    previous && typeof previous === 'object' && value && typeof value === 'object' && !Array.isArray(value)
      ? { ...(previous as Record<string, unknown>), ...(value as Record<string, unknown>) }
      : value;
  writeFileSync(RESULTS_FILE, `${JSON.stringify(current, null, 2)}\n`);
}

/** The middle value (of an odd count; the upper middle of an even one), or the middle item by `by`. */
export function middle(values: number[]): number;
export function middle<T>(items: T[], by: (item: T) => number): T;
export function middle<T>(items: T[], by = (item: T) => item as number): T {
  return [...items].sort((a, b) => by(a) - by(b))[Math.floor(items.length / 2)]!;
}

/** A process's resident memory now (VmRSS) and its peak so far (VmHWM), in MiB, from /proc. */
export function memoryOf(child: ChildProcess | number): { rssMb: number; peakMb: number } {
  const pid = typeof child === 'number' ? child : child.pid;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rssMb: 0, peakMb: 0 };
  }
}

/**
 * Samples a process's VmRSS every 100 ms while `during` runs and returns the highest value seen (MiB),
 * so a load's peak is reported even when start-up or an earlier phase raised VmHWM.
 */
export async function peakRssDuring<T>(
  child: ChildProcess | number,
  during: () => Promise<T>,
): Promise<{ result: T; rssMb: number }> {
  let peak = memoryOf(child).rssMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryOf(child).rssMb);
  }, 100);
  try {
    const result = await during();
    peak = Math.max(peak, memoryOf(child).rssMb);
    return { result, rssMb: peak };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A ratio as a percentage to a tenth: a whole-number percentage printed 0.495 as "50 %", met to the eye where
 * a target of 50 % was missed.
 */
export function percentWords(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/**
 * Records one path's figures under `key` (issue 14's shape) and answers the table rows for its ratio.
 * `anchorRate` is the yardstick measured in the same run (a string when the tool printed no number).
 */
export function recordPath(
  key: string,
  figures: { rate: number; anchorName: string; anchorRate: number | string; p99Ms: number; rssMb: number },
  extra: Record<string, unknown> = {},
): Record<string, string> {
  const anchor = typeof figures.anchorRate === 'number' ? figures.anchorRate : Number(figures.anchorRate);
  if (!Number.isFinite(anchor) || anchor <= 0) return { [`${key}: ratio`]: 'not measured (no anchor)' };
  const ratio = Number((figures.rate / anchor).toFixed(3));
  recordResult(key, { ...figures, anchorRate: anchor, ratio, ...extra });
  return { [`${key}: ratio (rate ÷ ${figures.anchorName})`]: percentWords(ratio) };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (0 when it is gone). */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * Seconds a process's main thread has so far spent runnable but waiting for a core (the kernel's run-queue
 * delay, /proc's schedstat; 0 when it is gone or the kernel keeps no schedstat). The app's main thread is
 * where every request passes, one at a time: while it waits, so does every request in the app.
 */
function waitingSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ');
    return Number(fields[1]) / 1e9 || 0;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every PostgreSQL process on the machine (server and backends). */
function postgresCpuSeconds(): Map<number, number> {
  const seen = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    seen.set(Number(entry), cpuSecondsOf(Number(entry)));
  }
  return seen;
}

export interface CpuShare {
  /** CPU milliseconds per operation: the app's process, PostgreSQL's processes, this (load-making) process */
  appMs: number;
  postgresMs: number;
  loadMs: number;
  /**
   * The share of the run's wall time (0–1) the app's main thread was ready to run but waited for a core:
   * on a machine the app shares with PostgreSQL and the load, the time its requests wait behind others.
   */
  appWaitShare: number;
}

/**
 * Where the machine's CPU went while `during` ran, per operation it reports (issue 14's profile): the app,
 * PostgreSQL (backends that ended during the run are missed, so it is a floor) and the load generator.
 */
export async function cpuDuring<T>(
  child: ChildProcess,
  during: () => Promise<T>,
  operations: (result: T) => number,
): Promise<{ result: T; cpu: CpuShare }> {
  const appBefore = cpuSecondsOf(child.pid!);
  const waitBefore = waitingSecondsOf(child.pid!);
  const pgBefore = postgresCpuSeconds();
  const loadBefore = process.cpuUsage();
  const started = performance.now();
  const result = await during();
  const wallSeconds = (performance.now() - started) / 1000;
  const load = process.cpuUsage(loadBefore);
  const appSeconds = cpuSecondsOf(child.pid!) - appBefore;
  const waitSeconds = waitingSecondsOf(child.pid!) - waitBefore;
  let pgSeconds = 0;
  for (const [pid, seconds] of postgresCpuSeconds()) pgSeconds += seconds - (pgBefore.get(pid) ?? 0);
  const n = Math.max(1, operations(result));
  // Not rounded here: a catalogue request is tens of µs (cpuWords rounds for the money benches' tables).
  const perOp = (seconds: number) => (seconds * 1000) / n;
  return {
    result,
    cpu: {
      appMs: perOp(appSeconds),
      postgresMs: perOp(pgSeconds),
      loadMs: perOp((load.user + load.system) / 1e6),
      appWaitShare: wallSeconds > 0 ? waitSeconds / wallSeconds : 0,
    },
  };
}

export function cpuWords(cpu: CpuShare): string {
  const ms = (value: number) => Number(value.toFixed(2));
  return `${ms(cpu.appMs)} / ${ms(cpu.postgresMs)} / ${ms(cpu.loadMs)} ms`;
}

/** The app's main thread's wait for a core, as a per cent of the run's time. */
export function waitWords(cpu: CpuShare): string {
  return `${Math.round(cpu.appWaitShare * 100)} %`;
}
