import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '../../shared/errors';
import { createTestApp, type TestApp } from '../../../tests/fixtures/test-app';

/**
 * Issue 12: every 4xx and 5xx from the API is `{ code, message }` (plus optional details), also the errors
 * Fastify and Node's HTTP parser raise before any route runs; Fastify's `error` and `statusCode` never leak.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function expectShape(res: { statusCode: number; body: string }, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).filter((k) => k !== 'details')).toEqual(['code', 'message']);
  expect(body.code).toBe(code);
  expect(body.message).toEqual(expect.any(String));
  expect(errorCodes[code as keyof typeof errorCodes]).toBe(status);
}

/** Sends raw bytes to a listening copy of the app and returns the status and body it answers. */
async function rawRequest(port: number, request: string): Promise<{ statusCode: number; body: string }> {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { statusCode: Number(head.split(' ')[1]), body };
}

describe('every error has the shape { code, message }', () => {
  it('a malformed percent-encoding in the path (FST_ERR_BAD_URL) is 400 VALIDATION_FAILED', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/gift-cards/%E0%A4%A' });
    expectShape(res, 400, 'VALIDATION_FAILED');
  });

  it('a path parameter over the router’s limit (FST_ERR_MAX_PARAM_LENGTH) is 414 URI_TOO_LONG', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/gift-cards/${'a'.repeat(500)}` });
    expectShape(res, 414, 'URI_TOO_LONG');
  });

  it('an unknown API route is 404 NOT_FOUND', async () => {
    expectShape(await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }), 404, 'NOT_FOUND');
  });

  it('malformed JSON and an unsupported content type carry no Fastify fields', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expectShape(bad, 400, 'VALIDATION_FAILED');
  });

  describe('on a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    it('request headers over Node’s limit (431) are 431 HEADERS_TOO_LARGE', async () => {
      const res = await rawRequest(
        port,
        `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expectShape(res, 431, 'HEADERS_TOO_LARGE');
    });

    it('a request Node cannot parse is 400 VALIDATION_FAILED', async () => {
      const res = await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n');
      expectShape(res, 400, 'VALIDATION_FAILED');
    });
  });
});
