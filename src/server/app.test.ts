import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from './app';
import { connectDatabase, type Database } from './db/client';
import { loadConfig } from './env';

describe('TRUST_PROXY as a hop count', () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'data/test-vitest-app',
      LOG_LEVEL: 'silent',
      TRUST_PROXY: '1',
    });
    database = connectDatabase(inject('databaseUrl'), { max: 2 });
    app = await buildApp({ config, db: database.db, logger: false });
    // What every per-IP limit keys on.
    app.get('/test/ip', async (request) => ({ ip: request.ip }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const ipOf = async (forwardedFor?: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/test/ip',
        remoteAddress: '127.0.0.1',
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      })
    ).json<{ ip: string }>().ip;

  it('takes the address the one proxy saw, never the leftmost one the client wrote', async () => {
    expect(await ipOf('6.6.6.6, 10.0.0.5')).toBe('10.0.0.5');
    expect(await ipOf('7.7.7.7, 6.6.6.6, 10.0.0.5')).toBe('10.0.0.5');
  });

  it('takes the forwarded address when there is only one, and the socket without the header', async () => {
    expect(await ipOf('10.0.0.5')).toBe('10.0.0.5');
    expect(await ipOf()).toBe('127.0.0.1');
  });
});
