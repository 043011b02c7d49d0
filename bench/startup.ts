import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * How long `npm start` takes from launch to the first 200 on / with an existing data folder (target < 3 s).
 * The first start (which creates the embedded database) is reported apart from the warm ones.
 */
const PORT = 3310;
const DATA_DIR = 'data/bench-startup';

async function waitFor200(url: string, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no 200 from ${url} within ${deadlineMs} ms`);
}

async function startOnce(): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    await waitFor200(`http://127.0.0.1:${PORT}/`, 60_000);
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

export async function benchStartup(): Promise<Record<string, string>> {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const cold = await startOnce();
  const warm: number[] = [];
  for (let i = 0; i < 5; i += 1) warm.push(await startOnce());
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)]!;
  rmSync(DATA_DIR, { recursive: true, force: true });
  return {
    'npm start → first 200 on /, new data folder': `${cold.toFixed(0)} ms`,
    'npm start → first 200 on /, existing data folder (median of 5)': `${median.toFixed(0)} ms`,
    'existing data folder, best / worst': `${warm[0]!.toFixed(0)} / ${warm[warm.length - 1]!.toFixed(0)} ms`,
  };
}
