import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from './app';
import { connectDatabase, type Database } from './db/client';
import { loadConfig } from './env';
import { buildEveryResponseSerializer } from './lib/response-serializer';
import { userInput } from '../../tests/fixtures/factories';

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

describe('the log', () => {
  let app: FastifyInstance;
  let database: Database;
  const lines: string[] = [];
  const suffix = Date.now();
  const marker = `logredact${suffix}`;
  const fn = `test_log_refuse_${suffix}`;
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'data/test-vitest-app', LOG_LEVEL: 'info' });
    database = connectDatabase(inject('databaseUrl'), { max: 2 });
    // A failure inside the INSERT of a new account, whose parameters hold the password hash, e-mail and phone.
    await database.pool.query(`
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the log test'; END $$;
      CREATE TRIGGER ${fn} BEFORE INSERT ON accounts FOR EACH ROW
        WHEN (NEW.email LIKE '${marker}%') EXECUTE FUNCTION ${fn}();
    `);
    app = await buildApp({ config, db: database.db, logStream: { write: (line) => void lines.push(line) } });
    await app.ready();
  });
  afterAll(async () => {
    await database.pool.query(`DROP TRIGGER ${fn} ON accounts; DROP FUNCTION ${fn}();`);
    await app.close();
    await database.close();
  });

  it('never holds query parameters: no password hash, e-mail, phone or password from a failed INSERT', async () => {
    const input = userInput({ email: `${marker}@example.test`, password: `Secret-${marker}` });
    input.confirmPassword = input.password;
    const res = await app.inject({ method: 'POST', url: '/api/v1/users', payload: input });
    expect(res.statusCode).toBe(500);

    const log = lines.join('');
    const failure = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'request failed');
    expect(failure).toBeDefined();
    expect(JSON.stringify(failure)).toContain('refused by the log test'); // the cause is still there to read
    expect(log).not.toContain(marker);
    expect(log).not.toContain(input.password);
    expect(log).not.toContain(input.phoneNumber.slice(-9));
    expect(log).not.toContain('$argon2');
  });
});

describe("every route's answers (ADR 042)", () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'data/test-vitest-app', LOG_LEVEL: 'silent' });
    database = connectDatabase(inject('databaseUrl'), { max: 1 });
    app = await buildApp({ config, db: database.db, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('compile: each answer schema of the app is built (in production at its first answer)', () => {
    const schemas = buildEveryResponseSerializer();
    expect(schemas).toBeGreaterThan(100);
  });
});
