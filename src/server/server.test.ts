import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The real process, as `npm start` runs it (from source through tsx so no build is needed): start-up,
 * clean shutdown on SIGTERM, reuse of the data folder, and one-line failures that say what to do.
 */
const tsx = path.resolve('node_modules/.bin/tsx');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'giftmart-server-test-'));
  dirs.push(dir);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(env: Record<string, string>) {
  const child = spawn(tsx, ['src/server/server.ts'], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

async function waitForHealth(port: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

describe('the server process', () => {
  it('starts on an embedded database, stops cleanly on SIGTERM, and reuses the data on the next start', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const first = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);
    const registered = await fetch(`http://127.0.0.1:${port}/api/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Restart Check',
        username: 'restart_check',
        email: 'restart@example.test',
        phoneNumber: '08031234567',
        password: 'long-enough-1',
        confirmPassword: 'long-enough-1',
      }),
    });
    expect(registered.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    const second = run({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(port);
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'restart_check', password: 'long-enough-1' }),
    });
    expect(login.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('exits with one line that says what to do when the embedded database port is taken', async () => {
    const blocker = net.createServer();
    const pgPort = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)),
    );
    try {
      const proc = run({
        PORT: String(await freePort()),
        DATA_DIR: tempDataDir(),
        EMBEDDED_PG_PORT: String(pgPort),
      });
      expect(await proc.exited).toBe(1);
      const lines = proc.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`port ${pgPort}`);
      expect(lines[0]).toContain('EMBEDDED_PG_PORT');
    } finally {
      blocker.close();
    }
  }, 120_000);

  it('exits with one line that says what to do when DATA_DIR cannot be written', async () => {
    const notAFolder = path.join(tempDataDir(), 'a-file');
    writeFileSync(notAFolder, 'not a folder');
    const proc = run({ PORT: String(await freePort()), DATA_DIR: notAFolder });
    expect(await proc.exited).toBe(1);
    const lines = proc.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('is not a writable folder');
  });

  it('refuses a bad setting with a message that names it', async () => {
    const proc = run({ PORT: 'eighty', DATA_DIR: tempDataDir() });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toMatch(/Invalid configuration[\s\S]*PORT/);
  });

  it('requires the secrets in production', async () => {
    const proc = run({
      NODE_ENV: 'production',
      DATA_DIR: tempDataDir(),
      SESSION_SECRET: '',
      CODE_ENCRYPTION_KEY: '',
    });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain('SESSION_SECRET and CODE_ENCRYPTION_KEY must be set in production');
  });
});
