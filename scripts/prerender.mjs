// Pre-renders the landing page at build time (ADR 004), so `/` paints without JavaScript; then the other public
// pages (FAQs, terms, support, choosing an account) into copies of index.html (see the end of this file). Vite has built
// landing.html (the entry for src/web/landing.ts, the page's small script); this renders the React landing
// page into it with react-dom/server, inlines its CSS (no render-blocking request), writes each lazy
// section's body as a small hashed chunk the script fetches when the section comes into view (and puts it
// in <noscript> for browsers without JavaScript), and writes gzip and brotli copies for the server.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Beasties from 'beasties';
import { tsImport } from 'tsx/esm/api';

const dist = 'dist/web';

/** The stylesheets `link` matches, inline: one request fewer before the first paint. */
function inlineStylesheets(html, link) {
  return html.replace(link, (_, href) => {
    const css = readFileSync(path.join(dist, href), 'utf8');
    return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
  });
}

/** Writes a page with the gzip and brotli copies the server sends, and says how big it is. */
function writePage(file, html, label) {
  writeFileSync(file, html);
  const gzip = gzipSync(html, { level: 9 });
  writeFileSync(`${file}.gz`, gzip);
  writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  console.log(
    `${label} pre-rendered: ${(html.length / 1024).toFixed(1)} KB HTML, ${(gzip.length / 1024).toFixed(1)} KB gzipped`,
  );
}

/** Which address each pre-rendered page answers (read by the server, src/server/plugins/web.ts). */
const prerendered = { '/': 'landing.html' };

const file = path.join(dist, 'landing.html');
const { renderLanding } = await tsImport('../src/web/features/site/landing-prerender.tsx', import.meta.url);
const { page, templates, sections } = renderLanding();

let html = readFileSync(file, 'utf8');
if (!html.includes('<div id="root"></div>')) {
  console.error(`${file} has no empty <div id="root"></div>: was it pre-rendered already?`);
  process.exit(1);
}

const chunks = {};
const sectionFiles = [];
let body = page;
for (const { id, chunk, html: sectionHtml } of sections) {
  const source = `export default ${JSON.stringify(sectionHtml)};\n`;
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
  const name = `assets/${chunk}-${hash}.js`;
  writeFileSync(path.join(dist, name), source);
  chunks[id] = `/${name}`;
  sectionFiles.push(name);
  const marker = `<template data-noscript-body="${id}"></template>`;
  if (!body.includes(marker)) throw new Error(`The pre-rendered page has no marker for section ${id}`);
  body = body.replace(marker, () => `<noscript>${sectionHtml}</noscript>`);
}

// The stylesheet goes inline: one request fewer before the first paint.
html = inlineStylesheets(html, /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g);
// Without JavaScript the sections' bodies are in <noscript>, so their loading animations go.
html = html.replace(
  '</head>',
  () => '  <noscript><style>section [role="status"]{display:none}</style></noscript>\n  </head>',
);
html = html.replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
html = html.replace(
  '</body>',
  () =>
    `${templates}<script type="application/json" id="landing-sections">${JSON.stringify(chunks)}</script>\n  </body>`,
);

writePage(file, html, 'Landing page');
writeFileSync(path.join(dist, '.vite/landing-sections.json'), `${JSON.stringify(sectionFiles)}\n`);

// The other public pages (issue 14): each one's HTML, as the app first draws it, in a copy of index.html
// instead of its loading screen, with the app's stylesheet inline (index.html fetches it without blocking the
// paint, for a loading screen that needs none; these pages need it for their first paint). The app's script
// still loads and draws the same page over it (src/web/main.tsx: data-prerendered).
const { renderPublicPages, PRERENDERED_CONFIG_SCRIPT } = await tsImport(
  '../src/web/app/public-pages-prerender.tsx',
  import.meta.url,
);
/** index.html's stylesheet, fetched without blocking its first paint (ADR 018); its address is group 1. */
const DEFERRED_LINK = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*data-deferred-style[^>]*>/;
const shell = readFileSync(path.join(dist, 'index.html'), 'utf8');

/**
 * Where a copy of index.html's loading screen starts (its comment, which says what it is for, or the root
 * itself) and where the body ends.
 */
function loadingScreenOf(html) {
  const comment = html.indexOf('<!-- Painted before any JavaScript runs');
  const root = comment >= 0 ? comment : html.indexOf('<div id="root">');
  const end = html.indexOf('</body>');
  if (root < 0 || end < root) throw new Error('index.html has no <div id="root"> before </body>');
  return { root, end };
}

const index = inlineStylesheets(shell, DEFERRED_LINK);
if (!index.includes('<style>')) throw new Error('index.html has no deferred stylesheet to inline');
const { root, end } = loadingScreenOf(index);
for (const { path: pagePath, file: pageFile, html: pageHtml } of renderPublicPages()) {
  const out = `${index.slice(0, root)}<div id="root" data-prerendered="${pagePath}">${pageHtml}</div>\n  ${PRERENDERED_CONFIG_SCRIPT}\n  ${index.slice(end)}`;
  writePage(path.join(dist, pageFile), out, pagePath);
  prerendered[pagePath] = pageFile;
}

// The signed-in catalogue's first screen (issue 14): a copy of index.html that keeps its loading screen, with
// the screen in a <template> and the inline script that puts it in place, before the first paint, for a
// visitor whose kept profile is a user's (src/web/app/user-home-prerender.tsx). Its largest paint, the
// welcome, no longer waits for the app's code. Of the stylesheet, only the rules this page uses go inline
// (Beasties matches each rule against the page, the template's screen included): the whole of it made the
// page 17 KB gzipped instead of 9, and its first paint waited for the rest. The stylesheet itself stays
// index.html's deferred link, which the app turns on before it draws (src/web/lib/deferred-styles.ts).
const { renderUserHome, USER_HOME_PATH, USER_HOME_SCRIPT, USER_HOME_TEMPLATE_ID } = await tsImport(
  '../src/web/app/user-home-prerender.tsx',
  import.meta.url,
);
const stylesheet = shell.match(DEFERRED_LINK)?.[1];
if (!stylesheet) throw new Error('index.html has no deferred stylesheet');
const { root: shellRoot, end: shellEnd } = loadingScreenOf(shell);
const userHomeScreen = renderUserHome();
// Beasties reads a page with the whole stylesheet inline and the screen in the body (it does not look into a
// <template>), and keeps of the stylesheet what that page uses.
const fullCss = readFileSync(path.join(dist, stylesheet), 'utf8').replaceAll('</style', '<\\/style');
const probe = await new Beasties({
  path: dist,
  external: false,
  reduceInlineStyles: true,
  // Tailwind names an animation's keyframes through a custom property, which Beasties cannot follow.
  keyframes: 'all',
  fonts: false,
  logLevel: 'warn',
}).process(
  `<!doctype html><html><head><style>${fullCss}</style></head><body>${userHomeScreen}</body></html>`,
);
const usedCss = probe.match(/<style>([\s\S]*)<\/style>/)?.[1];
if (!usedCss) throw new Error('Beasties left no stylesheet for the signed-in catalogue');
const head = shell
  .slice(0, shellRoot)
  .replace(DEFERRED_LINK, (link) => `<style>${usedCss}</style>\n    ${link}`);
const userHome =
  `${head}<template id="${USER_HOME_TEMPLATE_ID}">${userHomeScreen}</template>\n    ` +
  `${shell.slice(shellRoot, shellEnd)}<script>${USER_HOME_SCRIPT}</script>\n  ${shell.slice(shellEnd)}`;
writePage(path.join(dist, 'user-home.html'), userHome, USER_HOME_PATH);
prerendered[USER_HOME_PATH] = 'user-home.html';

writeFileSync(path.join(dist, '.vite/prerendered.json'), `${JSON.stringify(prerendered)}\n`);
