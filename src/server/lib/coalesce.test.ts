import { describe, expect, it } from 'vitest';
import { Coalescer, CoalescerMap } from './coalesce';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('Coalescer', () => {
  it('gives every caller a run that started after its call, with one run in flight and one waiting', async () => {
    const starts: number[] = [];
    const gates = [gate(), gate(), gate()];
    let runs = 0;
    const coalescer = new Coalescer(async () => {
      const n = runs++;
      starts.push(n);
      await gates[n]!.opened;
    });
    const settled: string[] = [];
    const first = coalescer.run().then(() => settled.push('first'));
    // Arrive while run 0 is in flight: they share run 1, which waits for run 0.
    const second = coalescer.run().then(() => settled.push('second'));
    const third = coalescer.run().then(() => settled.push('third'));
    await Promise.resolve();
    expect(starts).toEqual([0]);
    gates[0]!.open();
    await first;
    expect(settled).toEqual(['first']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(starts).toEqual([0, 1]);
    // Arrives while run 1 is in flight: it needs run 2.
    const fourth = coalescer.run().then(() => settled.push('fourth'));
    gates[1]!.open();
    await Promise.all([second, third]);
    expect(settled).toEqual(['first', 'second', 'third']);
    gates[2]!.open();
    await fourth;
    expect(starts).toEqual([0, 1, 2]);
    expect(settled).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('keeps going after a failed run', async () => {
    let runs = 0;
    const coalescer = new Coalescer(async () => {
      runs += 1;
      if (runs === 1) throw new Error('boom');
    });
    await coalescer.run();
    await coalescer.run();
    expect(runs).toBe(2);
  });

  it('keeps one coalescer per owner and key', async () => {
    const map = new CoalescerMap<object>();
    const [a, b] = [{}, {}];
    const ran: string[] = [];
    await Promise.all([
      map.run(a, 'card-1', async () => void ran.push('a1')),
      map.run(a, 'card-2', async () => void ran.push('a2')),
      map.run(b, 'card-1', async () => void ran.push('b1')),
    ]);
    expect(ran.sort()).toEqual(['a1', 'a2', 'b1']);
  });

  it('drops a key once its runs are over, and runs it again on the next call', async () => {
    const map = new CoalescerMap<object>();
    const owner = {};
    const gates = [gate(), gate()];
    let runs = 0;
    const task = async () => {
      await gates[runs++]!.opened;
    };
    const first = map.run(owner, 'card-1', task);
    const second = map.run(owner, 'card-1', task);
    expect(map.busy(owner)).toBe(1);
    gates[0]!.open();
    await first;
    expect(map.busy(owner)).toBe(1);
    gates[1]!.open();
    await second;
    await Promise.resolve();
    expect(map.busy(owner)).toBe(0);
    await map.run(owner, 'card-1', async () => void (runs += 1));
    expect(runs).toBe(3);
  });
});
