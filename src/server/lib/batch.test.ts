import { PgTransaction } from 'drizzle-orm/pg-core';
import { describe, expect, it, vi } from 'vitest';
import type { DbOrTx } from '../db/client';
import {
  Batcher,
  batchedLookup,
  batchedPerPool,
  batchLimitsOf,
  batcherPerOwner,
  DEFAULT_BATCH_LIMITS,
  GATHER_WHILE_BUSY_MS,
  setBatchLimits,
  type BatchOptions,
} from './batch';

/** Stand-ins for a pool's handle and a transaction's (only their class matters here). */
const pool = () => ({}) as DbOrTx;
const transaction = () => Object.create(PgTransaction.prototype) as DbOrTx;

/** A run that waits until the test lets it finish, recording what it was given. */
function heldRuns<I, O>(answer: (items: I[]) => O[] | Promise<O[]>) {
  const runs: { items: I[]; finish: () => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const run = async (items: I[]) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    runs.push({ items, finish });
    await finished;
    inFlight -= 1;
    return answer(items);
  };
  return { runs, run, mostInFlight: () => mostInFlight };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function batcher<I, O>(options: Partial<BatchOptions<I, O>> & Pick<BatchOptions<I, O>, 'run'>) {
  return new Batcher<I, O>({ maxSize: 64, maxInFlight: 1, keys: () => [], ...options });
}

/** An error as node-postgres reports PostgreSQL's refusal of a statement (drizzle keeps it as the cause). */
function refused(code: string): Error {
  return Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('refused'), { code }) });
}

describe('Batcher', () => {
  it('runs a lone item at once, and the items that arrive meanwhile together in the next run, each with its answer', async () => {
    const held = heldRuns((items: number[]) => items.map((n) => n * 10));
    const b = batcher({ run: held.run });
    const first = b.submit(1);
    await settle();
    expect(held.runs.map((r) => r.items)).toEqual([[1]]);
    const later = [b.submit(2), b.submit(3), b.submit(4)];
    await settle();
    expect(held.runs).toHaveLength(1);
    expect(b.state).toEqual({ inFlight: 1, waiting: 3 });
    held.runs[0]!.finish();
    expect(await first).toBe(10);
    await settle();
    expect(held.runs.map((r) => r.items)).toEqual([[1], [2, 3, 4]]);
    held.runs[1]!.finish();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
    expect(b.state).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('while its kind is busy, an item that finds no run in flight waits gatherMs for the others on their way', async () => {
    // The clock is the test's: on a loaded machine a real timer of a few milliseconds can take longer than
    // GATHER_WHILE_BUSY_MS or gatherMs, and the items would then go in two runs for the machine's sake.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const held = heldRuns((items: number[]) => items);
      const b = batcher({ run: held.run, gatherMs: 20 });
      const first = b.submit(1);
      expect(held.runs.map((r) => r.items)).toEqual([[1]]); // never ran before: at once
      held.runs[0]!.finish();
      expect(await first).toBe(1);
      await vi.advanceTimersByTimeAsync(0); // the run has ended
      // A run ended a moment ago: the next item waits, and one arriving meanwhile joins it.
      const next = b.submit(2);
      await vi.advanceTimersByTimeAsync(19);
      expect(held.runs).toHaveLength(1);
      const joining = b.submit(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.runs.map((r) => r.items)).toEqual([[1], [2, 3]]);
      held.runs[1]!.finish();
      expect(await Promise.all([next, joining])).toEqual([2, 3]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an item on a kind idle for longer than GATHER_WHILE_BUSY_MS goes at once, as does one with gatherMs 0', async () => {
    const held = heldRuns((items: number[]) => items);
    const b = batcher({ run: held.run, gatherMs: 20 });
    const first = b.submit(1);
    held.runs[0]!.finish();
    await first;
    await new Promise((resolve) => setTimeout(resolve, GATHER_WHILE_BUSY_MS + 5));
    const later = b.submit(2);
    expect(held.runs.map((r) => r.items)).toEqual([[1], [2]]);
    held.runs[1]!.finish();
    expect(await later).toBe(2);

    const plain = heldRuns((items: number[]) => items);
    const p = batcher({ run: plain.run });
    const one = p.submit(1);
    plain.runs[0]!.finish();
    await one;
    await settle();
    const two = p.submit(2);
    expect(plain.runs.map((r) => r.items)).toEqual([[1], [2]]);
    plain.runs[1]!.finish();
    expect(await two).toBe(2);
  });

  it('never puts two items sharing a key in one run, nor beside a run holding it; the later one waits its turn', async () => {
    const held = heldRuns((items: { id: string; card: string }[]) => items.map((i) => i.id));
    const b = batcher({ run: held.run, keys: (i) => [i.card], maxInFlight: 2 });
    const answers = [
      b.submit({ id: 'a', card: 'x' }),
      b.submit({ id: 'b', card: 'x' }),
      b.submit({ id: 'c', card: 'y' }),
      b.submit({ id: 'd', card: 'x' }),
    ];
    await settle();
    // a runs alone at once; b must wait for a (card x), c does not and takes the second run.
    expect(held.runs.map((r) => r.items.map((i) => i.id))).toEqual([['a'], ['c']]);
    held.runs[1]!.finish();
    await settle();
    // A run is free, but b and d both wait for card x.
    expect(held.runs).toHaveLength(2);
    held.runs[0]!.finish();
    await settle();
    expect(held.runs.map((r) => r.items.map((i) => i.id))).toEqual([['a'], ['c'], ['b']]);
    held.runs[2]!.finish();
    await settle();
    expect(held.runs.map((r) => r.items.map((i) => i.id))).toEqual([['a'], ['c'], ['b'], ['d']]);
    held.runs[3]!.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps to maxSize items a run and maxInFlight runs at once', async () => {
    const held = heldRuns((items: number[]) => items);
    const b = batcher({ run: held.run, maxSize: 3, maxInFlight: 2 });
    const answers = Array.from({ length: 10 }, (_, i) => b.submit(i));
    await settle();
    expect(held.runs.map((r) => r.items)).toEqual([[0], [1]]);
    while (held.runs.some((r) => r.items.length > 0)) {
      const open = held.runs.filter((r) => r.items.length > 0);
      for (const r of open) {
        r.finish();
        r.items = [];
      }
      await settle();
    }
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(held.mostInFlight()).toBe(2);
  });

  it('when PostgreSQL refuses a run, runs each item alone: only the one that fails gets the error', async () => {
    const runs: number[][] = [];
    const b = batcher<number, number>({
      maxInFlight: 1,
      run: async (items) => {
        runs.push(items);
        if (items.includes(13)) throw refused('23505');
        return items.map((n) => n + 1);
      },
    });
    const gate = b.submit(0);
    const answers = [12, 13, 14].map((n) =>
      b.submit(n).then(
        (v) => ({ v }),
        (e: Error) => ({ e }),
      ),
    );
    await gate;
    const settled = await Promise.all(answers);
    expect(settled[0]).toEqual({ v: 13 });
    expect((settled[1] as { e: { cause: { code: string } } }).e.cause.code).toBe('23505');
    expect(settled[2]).toEqual({ v: 15 });
    expect(runs).toEqual([[0], [12, 13, 14], [12], [13], [14]]);
  });

  it('when a run fails without PostgreSQL’s word (it may have committed), every item gets the error and none runs again', async () => {
    const runs: number[][] = [];
    const b = batcher<number, number>({
      run: async (items) => {
        runs.push(items);
        if (items.length > 1) throw new Error('Connection terminated unexpectedly');
        return items;
      },
    });
    const gate = b.submit(0);
    const answers = [1, 2, 3].map((n) => b.submit(n).catch((e: Error) => e.message));
    await gate;
    expect(await Promise.all(answers)).toEqual(Array(3).fill('Connection terminated unexpectedly'));
    expect(runs).toEqual([[0], [1, 2, 3]]);
  });

  it('refuses a run that answers for fewer items than it was given', async () => {
    const b = batcher<number, number>({ run: async (items) => items.slice(1) });
    await expect(b.submit(1)).rejects.toThrow('a batch of 1 answered 0 results');
  });
});

describe('batchedLookup', () => {
  it('reads the keys asked for meanwhile in one read, each key once, and answers undefined for a missing one', async () => {
    const reads: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const find = batchedLookup<string, number>(async (_db, keys) => {
      reads.push(keys);
      if (reads.length === 1) await held;
      return new Map(keys.filter((k) => k !== 'none').map((k) => [k, k.length]));
    });
    const owner = pool();
    const first = find(owner, 'a');
    const rest = [find(owner, 'bb'), find(owner, 'bb'), find(owner, 'none'), find(owner, 'ccc')];
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(rest)).toEqual([2, 2, undefined, 3]);
    expect(reads).toEqual([['a'], ['bb', 'none', 'ccc']]);
    // Another owner (another pool) has its own reads.
    expect(await find(pool(), 'dddd')).toBe(4);
    expect(reads).toHaveLength(3);
  });
});

describe('batchedPerPool', () => {
  it('inside a transaction runs the item at once, alone, even while a run of the pool is in flight', async () => {
    const held = heldRuns((items: number[]) => items.map((n) => -n));
    const alone: number[][] = [];
    const submit = batchedPerPool<number, number>((db) => ({
      keys: () => [],
      run: (items) =>
        db instanceof PgTransaction ? (alone.push(items), Promise.resolve(items)) : held.run(items),
    }));
    const db = pool();
    const pooled = [submit(db, 1), submit(db, 2)];
    await settle();
    expect(held.runs.map((r) => r.items)).toEqual([[1]]);
    expect(await submit(transaction(), 3)).toBe(3);
    expect(alone).toEqual([[3]]);
    held.runs[0]!.finish();
    await settle();
    held.runs[1]!.finish();
    expect(await Promise.all(pooled)).toEqual([-1, -2]);
  });
});

describe('batch limits per owner', () => {
  it('uses the limits set for an owner, and the defaults for any other', async () => {
    const owner = {};
    setBatchLimits(owner, { maxInFlight: 4 });
    expect(batchLimitsOf(owner)).toEqual({ ...DEFAULT_BATCH_LIMITS, maxInFlight: 4 });
    expect(batchLimitsOf({})).toEqual(DEFAULT_BATCH_LIMITS);
    const held = heldRuns((items: number[]) => items);
    const batchers = batcherPerOwner<object, number, number>(() => ({ keys: () => [], run: held.run }));
    expect(batchers(owner)).toBe(batchers(owner));
    const answers = Array.from({ length: 6 }, (_, i) => batchers(owner).submit(i));
    await settle();
    expect(held.runs.map((r) => r.items)).toEqual([[0], [1], [2], [3]]);
    for (const r of held.runs) r.finish();
    await settle();
    for (const r of held.runs.slice(4)) r.finish();
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
