/**
 * Runs a task for many callers with few runs: every caller's promise settles after a run that started after
 * its call, yet at most one run is in flight and one more waits. Callers that arrive during a run share the
 * next one. (Issue 14: 32 buyers confirming sales of one card each ran their own sold-count flush.)
 */
export class Coalescer {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly task: () => Promise<void>) {}

  /** No run in flight and none waiting. */
  get idle(): boolean {
    return !this.running && !this.queued;
  }

  run(): Promise<void> {
    if (!this.running) {
      const settled = () => {
        this.running = undefined;
      };
      this.running = this.task().then(settled, settled);
      return this.running;
    }
    if (!this.queued) {
      const next = () => {
        this.queued = undefined;
        return this.run();
      };
      this.queued = this.running.then(next);
    }
    return this.queued;
  }
}

/**
 * One Coalescer per owner (a database handle) and key while it has work: made on first use and dropped once
 * idle, so keys that are never seen again (one per gift card ever sold) are not kept.
 */
export class CoalescerMap<Owner extends object> {
  private readonly byOwner = new WeakMap<Owner, Map<string, Coalescer>>();

  /** How many keys of an owner have a run in flight or waiting. */
  busy(owner: Owner): number {
    return this.byOwner.get(owner)?.size ?? 0;
  }

  run(owner: Owner, key: string, task: () => Promise<void>): Promise<void> {
    let forOwner = this.byOwner.get(owner);
    if (!forOwner) {
      forOwner = new Map();
      this.byOwner.set(owner, forOwner);
    }
    let coalescer = forOwner.get(key);
    if (!coalescer) {
      coalescer = new Coalescer(task);
      forOwner.set(key, coalescer);
    }
    const settled = coalescer.run();
    const kept = coalescer;
    void settled.then(() => {
      if (kept.idle && forOwner.get(key) === kept) forOwner.delete(key);
    });
    return settled;
  }
}
