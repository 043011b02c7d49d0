import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverProcesses } from './fixtures/server-process';

/**
 * The README's own commands, read from README.md at test time, so the README cannot drift from what works:
 * its start command serves the app on a fresh data folder, its seed command fills it (with the server
 * running, and again with it stopped: idempotent), and every demo login in its table logs in.
 */
const readme = readFileSync('README.md', 'utf8');
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const { startCommand, waitForHealth, freePort, tempDataDir } = serverProcesses();

/** The text under a `## heading`, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The command lines of a section's ```sh blocks, without their trailing `# comments`. */
function commands(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

interface DemoLogin {
  role: 'business' | 'user';
  page: string;
  identifiers: string[];
}

/** The demo-logins table: role, page and every email or username given for the account. */
function demoLogins(text: string): DemoLogin[] {
  return text
    .split('\n')
    .filter((line) => /^\|\s*(Business|User)\s*\|/.test(line))
    .map((line) => {
      const [, role, page, who] = line.split('|').map((cell) => cell.trim());
      return {
        role: role!.toLowerCase() as DemoLogin['role'],
        page: page!.replace(/`/g, ''),
        identifiers: [...who!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
      };
    });
}

const start = commands(section('Start here'));
const demo = section('Demo logins');
const installAndStart = start[0]!.split('&&').map((part) => part.trim());
const startLine = installAndStart.slice(1).join(' && ');
const seedLine = commands(demo)[0]!;
const password = /password is `([^`]+)`/.exec(demo)?.[1];
const logins = demoLogins(demo);
/** What `everyDemoLogin` answers when every login in the table works. */
const allOk = () => logins.flatMap((login) => login.identifiers.map((id) => `${login.role} ${id}: 200`));

/**
 * The environment of someone who just cloned the repo: the embedded PostgreSQL (an empty DATABASE_URL counts
 * as unset and beats one in a local .env), NODE_ENV unset; only the port and data folder are the test's.
 */
function freshShell(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  };
  delete env.NODE_ENV;
  delete env.EMBEDDED_PG_PORT;
  return env;
}

/** Runs a command line to its end; its exit code and everything it printed. */
function run(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function logIn(port: number, login: DemoLogin, identifier: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: identifier, password, role: login.role }),
  });
  return response.status;
}

/** The README's start command, once it answers /api/health; fails at once if it exits first. */
async function serve(env: NodeJS.ProcessEnv, port: number) {
  const server = startCommand(startLine, env);
  let serving = false;
  await Promise.race([
    waitForHealth(port, server.output, 180_000),
    server.exited.then(({ code }) => {
      if (!serving) throw new Error(`"${startLine}" exited (${code}) before serving:\n${server.output()}`);
    }),
  ]);
  serving = true;
  return server;
}

async function everyDemoLogin(port: number): Promise<string[]> {
  const answers: string[] = [];
  for (const login of logins) {
    for (const identifier of login.identifiers) {
      answers.push(`${login.role} ${identifier}: ${await logIn(port, login, identifier)}`);
    }
  }
  return answers;
}

describe('the README', () => {
  it('names its set-up commands and a demo-logins table this test can read', () => {
    expect(installAndStart[0], 'the first command installs with npm ci').toBe('npm ci');
    expect(startLine).not.toBe('');
    expect(start).toContain('npm test');
    expect(seedLine).toMatch(/^npm run /);
    expect(password).toBeTruthy();
    expect(logins.map((login) => login.role)).toEqual(expect.arrayContaining(['business', 'user']));
    for (const login of logins) expect(login.identifiers.length, login.page).toBeGreaterThan(0);
    // Every npm script the README runs exists.
    for (const line of [...start, seedLine]) {
      for (const [, name, shorthand] of line.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)) {
        expect(scripts, line).toHaveProperty([(name ?? shorthand)!]);
      }
    }
  });

  it('start command serves a fresh data folder; the seed command (server running, then stopped) gives its demo logins', async () => {
    const dataDir = tempDataDir('giftmart-readme-');
    const port = await freePort();
    const env = freshShell(port, dataDir);

    const server = await serve(env, port);

    const seeded = await run(seedLine, env);
    expect(seeded.code, `"${seedLine}" with the server running:\n${seeded.output}`).toBe(0);
    expect(await everyDemoLogin(port)).toEqual(allOk());
    for (const page of new Set(logins.map((login) => login.page))) {
      expect((await fetch(`http://127.0.0.1:${port}${page}`)).status, page).toBe(200);
    }

    // Ctrl-C stops it cleanly: the embedded PostgreSQL is shut down too.
    server.interrupt();
    await server.stopped();
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid')), server.output()).toBe(false);

    const again = await run(seedLine, env);
    expect(again.code, `"${seedLine}" with the server stopped:\n${again.output}`).toBe(0);
    expect(again.output).toMatch(/already exist/i);

    const restarted = await serve(env, port);
    expect(await everyDemoLogin(port)).toEqual(allOk());
    restarted.interrupt();
    await restarted.stopped();
  }, 420_000);
});
