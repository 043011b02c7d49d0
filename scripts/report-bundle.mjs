// Reports the gzipped size of the JavaScript a first visit to the landing page downloads (the entry, its
// static imports, and the landing route's chunk with its static imports) and fails the build when it
// exceeds the budget, so the budget is kept rather than only written down.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 100;
const dist = 'dist/web';
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const files = new Set();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
}
const LANDING = 'src/web/features/site/landing-page.tsx';
if (!manifest[LANDING]) {
  console.error(`${LANDING} is not in the build manifest: did the landing page move? Update LANDING here.`);
  process.exit(1);
}
visit('index.html');
visit(LANDING);

let total = 0;
for (const file of files) total += gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = total / 1024;
console.log(
  `Landing page JavaScript: ${kb.toFixed(1)} KB gzipped in ${files.size} files (budget ${BUDGET_KB} KB)`,
);
if (kb > BUDGET_KB) {
  console.error(`Over budget by ${(kb - BUDGET_KB).toFixed(1)} KB: see what the landing page imports.`);
  process.exit(1);
}
