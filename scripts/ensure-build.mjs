// `npm start` and the browser tests need a build; make one only when the sources are newer than it,
// so a second `npm start` starts in well under a second instead of rebuilding.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const stamp = 'dist/server/server.js';
const inputs = [
  'src',
  'index.html',
  'landing.html',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
  'scripts/chunks.ts',
  'scripts/first-paint-html.ts',
  'scripts/prerender.mjs',
  'scripts/report-bundle.mjs',
  'scripts/seed.ts',
];

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce(
    (max, name) => Math.max(max, newest(path.join(target, name))),
    stat.mtimeMs,
  );
}

const built =
  existsSync(stamp) && existsSync('dist/web/index.html') && existsSync('dist/web/landing.html')
    ? statSync(stamp).mtimeMs
    : 0;
if (built === 0 || Math.max(...inputs.map(newest)) > built) {
  console.log('Building Giftmart (sources changed since the last build)…');
  execSync('npm run build', { stdio: 'inherit' });
}
