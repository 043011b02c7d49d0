/**
 * Runs a task for many callers with few runs: every caller's promise settles after a run that started after
 * its call, yet at most one run is in flight and one more waits. Callers that arrive during a run share the
 * next one. (Issue 14: 32 buyers confirming sales of one card each ran their own sold-count flush.)
 */
export class Coalescer {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly task: () => Promise<void>) {}

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

/** One Coalescer per owner (a database handle) and key, made on first use. */
export class CoalescerMap<Owner extends object> {
  private readonly byOwner = new WeakMap<Owner, Map<string, Coalescer>>();

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
    return coalescer.run();
  }
}
