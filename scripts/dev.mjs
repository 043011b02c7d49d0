// `npm run dev`: the API (reloading on change) on 3001 and Vite's dev server on 3000, which forwards /api.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'src/server/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: '3001' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
