/**
 * npm run fuzz (issue 12): starts its own server (from source, on a free port, with its own embedded
 * PostgreSQL in a temporary folder — or DATABASE_URL when set), reads the OpenAPI document it serves, and
 * sends at least FUZZ_REQUESTS (10,000) generated requests over HTTP: bad ids, wrong query values,
 * malformed and wrongly typed JSON, missing fields, NUL and control characters, huge strings and numbers,
 * wrong content types, with no session and with a business's and a user's. Any 5xx, an answer that never
 * comes, or a 4xx not shaped `{ code, message }` is printed with the server's log for that request, and the
 * script exits 1. The last line is always the count by status. FUZZ_SEED reproduces a run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { allCases, answerProblem, describeCase, type FuzzCase, type KnownIds } from '../tests/fixtures/fuzz';
import { operations, type OpenApiDocument } from '../tests/fixtures/openapi';

const SEED = Number(process.env.FUZZ_SEED ?? 12);
const TARGET = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One request with the path sent exactly as written (no URL normalisation, unlike fetch). */
function send(
  port: number,
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: '127.0.0.1', port, method, path: rawPath, headers, agent, timeout: TIMEOUT_MS },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    // The server may answer before reading a body it does not want (a GET's, one over the limit) and close
    // the connection: the write then fails, but the answer came and is what counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/**
 * A body over the limit, on a socket of its own. The server answers 413 from the Content-Length alone and
 * closes; had the client been writing the body meanwhile, the close would reset the connection and lose the
 * answer. So the headers go first, and the body only if no answer came within a second.
 */
function sendLarge(
  port: number,
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body: string | Buffer = '',
): Promise<Answer> {
  const bytes = Buffer.from(body);
  const head = Object.entries({
    host: `127.0.0.1:${port}`,
    ...headers,
    'content-length': String(bytes.length),
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return sendRaw(port, `${method} ${rawPath} HTTP/1.1\r\n${head}connection: close\r\n\r\n`, bytes, 1000);
}

/** Bytes as written (a request Node itself must refuse), and the answer read until the server closes. */
function sendRaw(port: number, head: string, body?: Buffer, bodyDelayMs = 0): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('no answer')));
    // Never half-close: the server may take the end of the request stream as the client going away.
    const bodyTimer = setTimeout(() => body && socket.write(body), bodyDelayMs);
    socket.on('data', (chunk: Buffer) => {
      clearTimeout(bodyTimer);
      chunks.push(chunk);
    });
    socket.on('error', () => undefined); // EPIPE/ECONNRESET while writing: the answer is read on close
    socket.on('close', () => {
      clearTimeout(bodyTimer);
      const raw = Buffer.concat(chunks).toString();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
      if (!match) return reject(new Error(`no answer (${raw.length} bytes)`));
      const [top, ...rest] = raw.split('\r\n\r\n');
      const answerHeaders: http.IncomingHttpHeaders = {};
      for (const line of top!.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        answerHeaders[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let text = rest.join('\r\n\r\n');
      if (answerHeaders['transfer-encoding'] === 'chunked') {
        let decoded = '';
        for (let at = 0; ;) {
          const end = text.indexOf('\r\n', at);
          const size = parseInt(text.slice(at, end), 16);
          if (!size) break;
          decoded += text.slice(end + 2, end + 2 + size);
          at = end + 2 + size + 2;
        }
        text = decoded;
      }
      resolve({ status: Number(match[1]), headers: answerHeaders, body: text });
    });
    socket.write(head);
  });
}

/**
 * Requests no HTTP client library would send: Node's parser and Fastify's router must answer them in shape.
 * (A body shorter than its Content-Length is left out: the server rightly waits for the rest until Node's
 * request timeout, then answers 408, which would hold the run for minutes.)
 */
function rawCases(port: number): { label: string; head: string; body?: Buffer }[] {
  const host = `host: 127.0.0.1:${port}\r\nconnection: close\r\n`;
  const json = '{"email":"a@example.test","password":"x"}';
  return [
    {
      label: 'header over the limit',
      head: `GET /api/v1/gift-cards HTTP/1.1\r\n${host}x-big: ${'h'.repeat(20_000)}\r\n\r\n`,
    },
    {
      label: 'cookie over the limit',
      head: `GET /api/v1/wallet HTTP/1.1\r\n${host}cookie: giftmart_session=${'c'.repeat(20_000)}\r\n\r\n`,
    },
    {
      label: '500 headers',
      head: `GET /api/v1/gift-cards HTTP/1.1\r\n${host}${Array.from({ length: 500 }, (_, i) => `x-h${i}: v\r\n`).join('')}\r\n`,
    },
    { label: 'path of 10 kB', head: `GET /api/v1/gift-cards/${'a'.repeat(10_000)} HTTP/1.1\r\n${host}\r\n` },
    { label: 'bad %-encoding in the path', head: `GET /api/v1/gift-cards/%E0%A4%A HTTP/1.1\r\n${host}\r\n` },
    { label: 'NUL in the path', head: `GET /api/v1/gift-cards/a%00b HTTP/1.1\r\n${host}\r\n` },
    {
      label: 'raw control byte in the path',
      head: `GET /api/v1/gift-cards/a\u0001b HTTP/1.1\r\n${host}\r\n`,
    },
    { label: 'absolute URI', head: `GET http://evil.example/api/v1/gift-cards HTTP/1.1\r\n${host}\r\n` },
    { label: 'unknown method', head: `FOO /api/v1/gift-cards HTTP/1.1\r\n${host}\r\n` },
    { label: 'unknown API path', head: `GET /api/v1/no-such-thing HTTP/1.1\r\n${host}\r\n` },
    { label: 'not HTTP', head: 'HELLO THERE\r\n\r\n' },
    { label: 'HTTP/1.0 without host', head: 'GET /api/v1/gift-cards HTTP/1.0\r\n\r\n' },
    {
      label: 'bad chunked body',
      head: `POST /api/v1/auth/login HTTP/1.1\r\n${host}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
    },
    {
      label: 'content-length and chunked',
      head: `POST /api/v1/auth/login HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`,
    },
    {
      label: 'content-length not a number',
      head: `POST /api/v1/auth/login HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-length: abc\r\n\r\n${json}`,
    },
    {
      label: 'two content-lengths',
      head: `POST /api/v1/auth/login HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-length: 2\r\ncontent-length: 40\r\n\r\n{}`,
    },
    {
      label: 'gzip body that is not gzip',
      head: `POST /api/v1/auth/login HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
    },
    { label: 'header with a NUL', head: `GET /api/v1/gift-cards HTTP/1.1\r\n${host}x-a: a\u0000b\r\n\r\n` },
    { label: 'bare LF line endings', head: `GET /api/v1/gift-cards HTTP/1.1\nhost: 127.0.0.1\n\n` },
  ];
}

async function main(): Promise<number> {
  const started = Date.now();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'giftmart-fuzz-'));
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      LOG_LEVEL: 'warn',
      PAYMENT_PROVIDER: 'sandbox',
      PUBLIC_URL: origin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stdout.on('data', (chunk) => (log += String(chunk)));
  server.stderr.on('data', (chunk) => (log += String(chunk)));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000)]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const until = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server stopped:\n${log}`);
      if (Date.now() > until) throw new Error(`the server did not become healthy:\n${log}`);
      try {
        if ((await send(port, 'GET', '/api/health', {})).status === 200) break;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }

    const json = { 'content-type': 'application/json', origin };
    const call = async (method: string, url: string, payload: unknown, cookie?: string) => {
      const res = await send(
        port,
        method,
        url,
        { ...json, ...(cookie ? { cookie } : {}) },
        JSON.stringify(payload),
      );
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.body}`);
      return res;
    };
    const tag = `${Date.now().toString(36)}${process.pid}`;
    const password = 'fuzz-horse-9-battery';
    const phone = () => `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const login = async (role: 'business' | 'user') => {
      const email = `fuzz-${role}-${tag}@example.test`;
      const registered = await call('POST', role === 'business' ? '/api/v1/businesses' : '/api/v1/users', {
        name: `Fuzz ${role}`,
        email,
        phoneNumber: phone(),
        password,
        confirmPassword: password,
        ...(role === 'user' ? { username: `fuzz_${tag}`.slice(0, 30) } : {}),
      });
      const res = await call('POST', '/api/v1/auth/login', { email, password, role });
      const cookie = String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
      return { id: (JSON.parse(registered.body) as { id: string }).id, cookie };
    };
    const business = await login('business');
    const user = await login('user');
    const design = JSON.parse(
      (await call('POST', '/api/v1/gift-cards', { amount: 500_000, colour: '#1a2b3c' }, business.cookie))
        .body,
    ) as { id: string };
    const order = JSON.parse(
      (await call('POST', '/api/v1/orders', { giftCardId: design.id }, user.cookie)).body,
    ) as { id: string };
    const ids: KnownIds = {
      businessId: business.id,
      businessID: business.id,
      userID: user.id,
      giftcardID: design.id,
      '/api/v1/gift-cards/{id} id': design.id,
      '/api/getonegiftcard/{id} id': design.id,
      '/api/v1/orders/{id} id': order.id,
    };

    const doc = JSON.parse((await send(port, 'GET', '/api/docs/json', {})).body) as OpenApiDocument;
    const ops = operations(doc);
    // Rounds with the sessions dealt in another order, until the target is reached.
    const rotations = [
      ['none', 'business', 'user'],
      ['business', 'user', 'none'],
      ['user', 'none', 'business'],
    ] as const;
    let cases: FuzzCase[] = [];
    for (let round = 0; cases.length < TARGET; round++) {
      const more = allCases(ops, { seed: SEED + round * 1000, ids, sessions: [...rotations[round % 3]!] });
      cases = cases.concat(more.map((c) => ({ ...c, n: cases.length + c.n })));
    }

    const cookies = { none: undefined, business: business.cookie, user: user.cookie };
    const counts = new Map<number | string, number>();
    const failures: { c: FuzzCase; problem: string; requestId?: string }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const cookie = cookies[c.session];
        try {
          const large = c.body !== undefined && c.body.length > 1024 * 1024;
          const res = await (large ? sendLarge : send)(
            port,
            c.method,
            c.url,
            { origin, ...(cookie ? { cookie } : {}), ...c.headers },
            c.body,
          );
          counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
          const problem = answerProblem(c, res.status, res.headers['content-type'], res.body);
          if (problem) failures.push({ c, problem, requestId: res.headers['x-request-id'] as string });
        } catch (error) {
          // A socket the server closed after answering an over-long request (431/400) is not an answer lost.
          counts.set('no answer', (counts.get('no answer') ?? 0) + 1);
          failures.push({ c, problem: `no answer: ${(error as Error).message}` });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    let total = cases.length;
    for (const raw of rawCases(port)) {
      const c: FuzzCase = {
        n: total++,
        op: 'raw',
        label: `raw: ${raw.label}`,
        method: raw.head.split(' ')[0]!,
        url: raw.head.split(' ')[1] ?? '',
        headers: {},
        session: 'none',
      };
      try {
        const res = await sendRaw(port, raw.head, raw.body);
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
        const problem = answerProblem(
          { ...c, url: '/api' },
          res.status,
          res.headers['content-type'],
          res.body,
        );
        if (problem) failures.push({ c, problem, requestId: res.headers['x-request-id'] as string });
      } catch (error) {
        counts.set('no answer', (counts.get('no answer') ?? 0) + 1);
        failures.push({ c, problem: `no answer: ${(error as Error).message}` });
      }
    }

    for (const [who, cookie] of Object.entries({ business: business.cookie, user: user.cookie })) {
      const still = await send(port, 'GET', '/api/v1/auth/session', { cookie });
      if (still.status !== 200)
        console.log(`note: the ${who} session ended during the run (${still.status})`);
    }

    for (const { c, problem, requestId } of failures) {
      console.log(`FAIL ${describeCase(c)}\n  → ${problem}`);
      if (requestId) {
        for (const line of log.split('\n').filter((l) => l.includes(requestId)))
          console.log(`  log: ${line}`);
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `${failures.length} problem(s); seed ${SEED}; ${ops.length} operations; ${seconds} s including the server's start`,
    );
    const byStatus = [...counts]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    console.log(`fuzz: ${total} requests — ${byStatus}`);
    return failures.length ? 1 : 0;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    console.log('fuzz: 0 requests — the run could not start');
    process.exit(1);
  },
);
