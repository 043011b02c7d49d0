import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';

/**
 * Issue 14 (ADR 027): many callers' writes in few statements. Each caller submits one item and gets its own
 * answer; the items waiting while `maxInFlight` runs are in flight go together in the next run, one
 * statement and one commit for all of them, so a busy instance pays a statement's fixed costs (round trip,
 * executor start, commit, WAL flush, the NOTIFY lock) once per batch instead of once per item. A caller
 * alone waits for nothing: with a run free, its item goes at once, by itself. While its kind is busy (a run
 * ended less than `GATHER_WHILE_BUSY_MS` ago), an item that finds no run in flight waits `gatherMs` for the
 * others on their way, and they go together (ADR 032).
 *
 * Items that share a key (a card, an Idempotency-Key) never share a run, nor run beside one holding that
 * key: one statement cannot change a row twice, and the second must see what the first wrote. Such an item
 * waits for the next run, in the order it came.
 *
 * When PostgreSQL refuses a run of several items (an error with a SQLSTATE: the statement, and with it the
 * run's transaction, rolled back), each item runs again by itself, so an error is the answer of the item
 * that caused it and of no other (and a deadlock with another instance's run is retried once, alone). Any
 * other failure (the connection lost) may have come after the commit, so it is every item's answer, as it
 * would have been the answer of each one's own statement: nothing is run twice.
 */
export interface BatchOptions<I, O> {
  /** Runs the items in one statement; answers one result per item, in the items' order. */
  run(items: I[]): Promise<O[]>;
  /** Keys no two items of one run may share. */
  keys(item: I): readonly string[];
  /** The most items in one run. */
  maxSize: number;
  /** The most runs in flight at once (each holds one pooled connection while it runs). */
  maxInFlight: number;
  /**
   * Milliseconds an item that finds no run in flight waits for others before its run starts, while its kind
   * is busy (ADR 032); 0 or unset: it goes at once.
   */
  gatherMs?: number;
}

/**
 * A kind is busy while its last run ended less than this long ago: items are then arriving at least about
 * every few milliseconds, and one that waits `gatherMs` is likely to share its run. On a kind idle longer, an
 * item goes at once.
 */
export const GATHER_WHILE_BUSY_MS = 10;

/** How large a batch may be, and how many of one kind may run at once. */
export type BatchLimits = Required<
  Pick<BatchOptions<unknown, unknown>, 'maxSize' | 'maxInFlight' | 'gatherMs'>
>;

/**
 * The limits when none were set for an owner: 64 items a statement, one statement of each kind in flight per
 * instance (ADR 027: on two cores shared with PostgreSQL, one in flight made the largest batches and the most
 * of each kind per second; `DATABASE_BATCHES_IN_FLIGHT` raises it), and 1 ms of gathering while busy (ADR 032,
 * `DATABASE_BATCH_GATHER_MS`).
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxSize: 64, maxInFlight: 1, gatherMs: 1 };

const limitsByOwner = new WeakMap<object, BatchLimits>();

/** Sets the limits of the batches made for an owner (a database handle) from now on. */
export function setBatchLimits(owner: object, limits: Partial<BatchLimits>): void {
  limitsByOwner.set(owner, { ...DEFAULT_BATCH_LIMITS, ...limits });
}

export function batchLimitsOf(owner: object): BatchLimits {
  return limitsByOwner.get(owner) ?? DEFAULT_BATCH_LIMITS;
}

interface Waiting<I, O> {
  item: I;
  keys: readonly string[];
  resolve(value: O): void;
  reject(error: unknown): void;
}

export class Batcher<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private readonly busyKeys = new Set<string>();
  private inFlight = 0;
  /** A gathering's timer is set: the items submitted meanwhile wait for it. */
  private gathering = false;
  private lastRunEnded = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: BatchOptions<I, O>) {}

  /** How many runs are in flight and how many items wait (for tests and the bench). */
  get state(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, keys: this.options.keys(item), resolve, reject });
      if (!this.gathering) this.pumpOrGather();
    });
  }

  /** Starts what may start now, unless the kind is busy and idle this instant: then gathers first. */
  private pumpOrGather(): void {
    const gatherMs = this.options.gatherMs ?? 0;
    if (this.inFlight === 0 && gatherMs > 0 && performance.now() - this.lastRunEnded < GATHER_WHILE_BUSY_MS) {
      this.gathering = true;
      setTimeout(() => {
        this.gathering = false;
        this.pump();
      }, gatherMs);
      return;
    }
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.inFlight += 1;
      void this.runBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.lastRunEnded = performance.now();
        for (const w of batch) for (const key of w.keys) this.busyKeys.delete(key);
        this.pump();
      });
    }
  }

  /** The waiting items that may run now, oldest first, none sharing a key with another or with a run. */
  private take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    for (let i = 0; i < this.waiting.length && batch.length < this.options.maxSize;) {
      const w = this.waiting[i]!;
      if (w.keys.some((key) => this.busyKeys.has(key))) {
        i += 1;
        continue;
      }
      for (const key of w.keys) this.busyKeys.add(key);
      batch.push(w);
      this.waiting.splice(i, 1);
    }
    return batch;
  }

  private async runBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.options.run(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
      }
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1 || !rolledBack(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // Each alone, so that only the item that failed fails; one after the other, on this run's turn.
      for (const w of batch) {
        try {
          const [result] = await this.options.run([w.item]);
          w.resolve(result!);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }
}

/** A refusal PostgreSQL reported for the statement (drizzle keeps node-postgres's error as the cause). */
function rolledBack(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * One value per owner (an object: a database handle), made on first use and dropped with its owner: the app
 * and each test's app have their own pool, and a batch must go to the pool its callers use.
 */
export function perOwner<Owner extends object, V>(make: (owner: Owner) => V): (owner: Owner) => V {
  const byOwner = new WeakMap<Owner, V>();
  return (owner) => {
    let value = byOwner.get(owner);
    if (value === undefined) {
      value = make(owner);
      byOwner.set(owner, value);
    }
    return value;
  };
}

/** One Batcher per owner (see `perOwner`), with the owner's limits (`setBatchLimits`). */
export function batcherPerOwner<Owner extends object, I, O>(
  make: (owner: Owner) => Omit<BatchOptions<I, O>, keyof BatchLimits>,
): (owner: Owner) => Batcher<I, O> {
  return perOwner((owner) => new Batcher({ ...batchLimitsOf(owner), ...make(owner) }));
}

/**
 * A statement for many callers (see `Batcher`): on a pool, each call waits for a free run of that pool's
 * batcher and shares it with the others waiting; inside a transaction, which has one connection and its own
 * order of statements, the item runs at once, alone.
 */
export function batchedPerPool<I, O>(
  make: (db: DbOrTx) => Omit<BatchOptions<I, O>, keyof BatchLimits>,
): (db: DbOrTx, item: I) => Promise<O> {
  const batchers = batcherPerOwner(make);
  return async (db, item) => {
    if (db instanceof PgTransaction) return (await make(db).run([item]))[0]!;
    return batchers(db).submit(item);
  };
}

/**
 * Reads by key from many callers in few statements (see `batchedPerPool`): the keys asked for while a read
 * of that kind is in flight are read together, each key once, and every caller gets its key's value
 * (undefined when there is none).
 */
export function batchedLookup<K, V>(
  read: (db: DbOrTx, keys: K[]) => Promise<Map<K, V>>,
): (db: DbOrTx, key: K) => Promise<V | undefined> {
  return batchedPerPool<K, V | undefined>((db) => ({
    keys: () => [],
    run: async (keys) => {
      const found = await read(db, [...new Set(keys)]);
      return keys.map((key) => found.get(key));
    },
  }));
}
