// Bundles the server into dist/server/server.js (dependencies stay in node_modules) and copies the
// migrations beside it, so `npm start` runs plain JavaScript.
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
rmSync('dist/server', { recursive: true, force: true });
await build({
  // Named entry points: the seed lands beside the server (dist/server/seed.js), where the migrations are.
  entryPoints: { server: 'src/server/server.ts', seed: 'scripts/seed.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}),
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
console.log('built dist/server');
