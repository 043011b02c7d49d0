import type pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { namedDatabase } from '../../../tests/fixtures/listen';
import { Listener } from './listen';

/**
 * Every room that reacts to other instances' changes (live unread counts, the catalogue's pages, sessions)
 * listens through one connection per pool, not one each (issue 14: three of the pool's connections did
 * nothing but wait).
 */
describe('Listener', () => {
  const named = namedDatabase('giftmart-listen-test');

  const channel = (name: string) => `listen_test_${name}_${process.pid}`;
  const made: Listener[] = [];
  afterEach(() => made.splice(0).forEach((listener) => listener.close()));

  function listener(name: string) {
    const heard: string[] = [];
    const events: string[] = [];
    const it = new Listener({
      db: named.database.db,
      channel: channel(name),
      log: pino({ level: 'silent' }),
      onPayload: (payload) => heard.push(payload),
      onLost: () => events.push('lost'),
      onRecovered: () => events.push('recovered'),
      reconnectBaseMs: 50,
      reconnectMaxMs: 200,
    });
    made.push(it);
    return { it, heard, events };
  }

  const announce = (name: string, payload: string) =>
    named.database.pool.query('SELECT pg_notify($1, $2)', [channel(name), payload]);

  it('shares one connection among all listeners of a pool; each hears only its own channel', async () => {
    const one = listener('one');
    const two = listener('two');
    const twoAgain = listener('two');
    await Promise.all([one.it.start(), two.it.start(), twoAgain.it.start()]);
    expect([one.it.listening, two.it.listening, twoAgain.it.listening]).toEqual([true, true, true]);
    expect(await named.listenConnections()).toBe(1);

    const late = listener('late');
    await late.it.start();
    expect(late.it.listening).toBe(true);
    expect(await named.listenConnections()).toBe(1);

    await announce('one', 'a');
    await announce('two', 'b');
    await announce('late', 'c');
    await expect
      .poll(() => [one.heard, two.heard, twoAgain.heard, late.heard])
      .toEqual([['a'], ['b'], ['b'], ['c']]);

    // One listener of a channel closes: the other still hears it, and the connection stays.
    two.it.close();
    expect(two.it.listening).toBe(false);
    await announce('two', 'd');
    await expect.poll(() => twoAgain.heard).toEqual(['b', 'd']);
    expect(two.heard).toEqual(['b']);
    expect(await named.listenConnections()).toBe(1);
  });

  it('tells every listener when the connection is lost, and brings them all back on one new one', async () => {
    const one = listener('one');
    const two = listener('two');
    await Promise.all([one.it.start(), two.it.start()]);
    expect(await named.killListenConnections()).toBe(1);
    await expect.poll(() => [one.events, two.events]).toEqual([['lost'], ['lost']]);
    await expect
      .poll(() => [one.events, two.events])
      .toEqual([
        ['lost', 'recovered'],
        ['lost', 'recovered'],
      ]);
    expect([one.it.listening, two.it.listening]).toEqual([true, true]);
    expect(await named.listenConnections()).toBe(1);
    await announce('one', 'after');
    await announce('two', 'after');
    await expect.poll(() => [one.heard, two.heard]).toEqual([['after'], ['after']]);
  });

  it('sends one LISTEN for a channel however many ask at once, and one statement at a time on its connection', async () => {
    // What the connection is sent, and how many of its statements are under way at once: node-postgres
    // queues a second one only with a deprecation warning, and will not from pg 9.
    const { pool } = named.database;
    const connect = pool.connect;
    const sent: string[] = [];
    let underWay = 0;
    let most = 0;
    pool.connect = async function (this: typeof pool, ...args: unknown[]) {
      if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(this, args);
      const client = await (connect as () => Promise<pg.PoolClient>).call(this);
      const query = client.query.bind(client) as (text: string) => Promise<unknown>;
      (client as unknown as { query: (text: string) => Promise<unknown> }).query = (text: string) => {
        sent.push(text);
        underWay += 1;
        most = Math.max(most, underWay);
        return query(text).finally(() => (underWay -= 1));
      };
      return client;
    } as typeof pool.connect;
    try {
      const first = listener('first');
      await first.it.start();
      // A read that finds its listener not yet listening starts it (ChangeCounter.begin): twenty at once.
      const busy = listener('busy');
      const others = [listener('a'), listener('b'), listener('c')];
      await Promise.all([
        ...Array.from({ length: 20 }, () => busy.it.start()),
        ...others.map((other) => other.it.start()),
      ]);
      expect([busy.it.listening, ...others.map((other) => other.it.listening)]).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(sent.filter((text) => text === `LISTEN ${channel('busy')}`)).toHaveLength(1);
      expect(most).toBe(1);
      await announce('busy', 'heard');
      await expect.poll(() => busy.heard).toEqual(['heard']);
    } finally {
      pool.connect = connect;
    }
  });

  it('lets the connection go with its last listener', async () => {
    const one = listener('one');
    const two = listener('two');
    await Promise.all([one.it.start(), two.it.start()]);
    one.it.close();
    expect(await named.listenConnections()).toBe(1);
    two.it.close();
    await expect.poll(() => named.listenConnections()).toBe(0);
    // Started again later, it opens a new one.
    const again = listener('one');
    await again.it.start();
    expect(again.it.listening).toBe(true);
    expect(await named.listenConnections()).toBe(1);
  });
});
