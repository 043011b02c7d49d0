import type { FastifyBaseLogger } from 'fastify';
import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from './lazy-logger';
import { logRedaction } from './log-redaction';

/** A logger with the app's redaction (app.ts spreads `logRedaction` into Fastify's logger options). */
function logged(write: (log: Logger) => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const log = pino({ level: 'info', ...logRedaction }, { write: (line: string) => void lines.push(line) });
  write(log);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** An error as drizzle throws it: the query's parameters in `params`, PostgreSQL's own error as the cause. */
function queryError(): Error {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
    code: '23505',
    detail: 'Key (email)=(ada@example.test) already exists.',
  });
  return Object.assign(new Error('Failed query: insert into accounts …', { cause }), {
    query: 'insert into accounts (email) values ($1)',
    params: ['ada@example.test'],
  });
}

describe('log redaction', () => {
  it('censors each secret field at the top, one level down and two levels down, and keeps the rest', () => {
    const [line] = logged((log) =>
      log.info(
        {
          password: 'pw-top',
          code: 'GIFT-CODE-TOP',
          reference: 'ord_1',
          body: { pin: '1234', code: 'GIFT-CODE-BODY', amount: 500 },
          input: { code: 'GIFT-CODE-INPUT' },
          user: {
            email: 'ada@example.test',
            name: 'Ada',
            bank: { accountNumber: '0123456789', bank: 'GTB' },
          },
          list: [{ phone: '08030000000', id: 1 }],
        },
        'a line',
      ),
    );
    expect(line).toMatchObject({
      password: '[redacted]',
      code: '[redacted]',
      reference: 'ord_1',
      body: { pin: '[redacted]', code: '[redacted]', amount: 500 },
      input: { code: '[redacted]' },
      user: { email: '[redacted]', name: 'Ada', bank: { accountNumber: '[redacted]', bank: 'GTB' } },
      list: [{ phone: '[redacted]', id: 1 }],
      msg: 'a line',
    });
  });

  it("censors request headers and a body's code written as plain data, and a reply's cookies", () => {
    const [line] = logged((log) =>
      log.info({
        req: { headers: { cookie: 'giftmart_session=abc', authorization: 'Bearer t', accept: '*/*' } },
        res: { headers: { 'set-cookie': 'giftmart_session=abc' }, statusCode: 200 },
      }),
    );
    expect(line).toMatchObject({
      req: { headers: { cookie: '[redacted]', authorization: '[redacted]', accept: '*/*' } },
      res: { headers: { 'set-cookie': '[redacted]' }, statusCode: 200 },
    });
  });

  it("takes a query's parameters and PostgreSQL's detail out of an error, under err or any other key", () => {
    const lines = logged((log) => {
      log.error({ err: queryError() }, 'request failed');
      log.error({ error: queryError() }, 'job failed');
    });
    for (const [i, line] of lines.entries()) {
      const error = line[i === 0 ? 'err' : 'error'] as Record<string, unknown>;
      expect(error.params).toBe('[redacted]');
      expect(error.query).toBe('insert into accounts (email) values ($1)');
      expect(JSON.stringify(line)).not.toContain('ada@example.test');
    }
  });

  it("keeps an error's code, which a reader needs (not a card's code)", () => {
    const [line] = logged((log) =>
      log.error({ err: Object.assign(new Error('refused'), { code: '23514' }) }),
    );
    expect(line!.err).toMatchObject({ code: '23514', message: 'refused' });
  });

  it("never writes to the caller's objects", () => {
    const body = { pin: '1234', nested: { email: 'ada@example.test' } };
    const object = { body, password: 'pw' };
    logged((log) => log.info(object));
    expect(object).toEqual({ body: { pin: '1234', nested: { email: 'ada@example.test' } }, password: 'pw' });
    expect(object.body).toBe(body);
  });

  it("censors a request logger's bindings (lazyChildLogger, Fastify's childLoggerFactory)", () => {
    const [line] = logged((log) => {
      const child = lazyChildLogger(
        log as unknown as FastifyBaseLogger,
        { email: 'ada@example.test', reqId: 'r1' },
        {},
      );
      child.info('bound');
    });
    expect(line).toMatchObject({ email: '[redacted]', reqId: 'r1', msg: 'bound' });
  });
});
