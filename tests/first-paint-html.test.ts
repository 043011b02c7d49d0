import { describe, expect, it } from 'vitest';
import {
  DEFERRED_STYLE_ATTRIBUTE,
  SCREENS_BY_ADDRESS,
  firstPaintHtml,
  screenFiles,
} from '../scripts/first-paint-html';

const built = (head: string) =>
  `<!doctype html><html><head>${head}</head><body><div id="root"></div></body></html>`;

describe('the built pages paint before their scripts and stylesheet (scripts/first-paint-html.ts)', () => {
  it("index.html's stylesheet no longer blocks the first paint and waits for the app to switch it on", () => {
    const html = firstPaintHtml(
      built(
        '<script type="module" crossorigin src="/assets/index-a.js"></script>' +
          '<link rel="modulepreload" crossorigin href="/assets/start-b.js">' +
          '<link rel="stylesheet" crossorigin href="/assets/start-c.css">',
      ),
      '/index.html',
    );
    expect(html).toContain(
      `<link rel="stylesheet" crossorigin href="/assets/start-c.css" media="print" ${DEFERRED_STYLE_ATTRIBUTE}>`,
    );
    // The app's code keeps its priority: every screen but the loading one needs it.
    expect(html).not.toContain('fetchpriority');
  });

  it("index.html's script tags become one inline loader that asks for them once the page has painted", () => {
    const html = firstPaintHtml(
      built(
        '<script type="module" crossorigin src="/assets/index-a.js"></script>\n' +
          '    <link rel="modulepreload" crossorigin href="/assets/index-a.js">\n' +
          '    <link rel="modulepreload" crossorigin href="/assets/start-b.js">',
      ),
      '/index.html',
    );
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain('modulepreload" crossorigin');
    const loader = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(loader).toContain('"entry":"/assets/index-a.js","preloads":["/assets/start-b.js"]');
    expect(loader).toContain("getEntriesByName('first-contentful-paint')");
  });

  it('refuses an index.html without exactly one module script, rather than a page that never starts', () => {
    expect(() => firstPaintHtml(built('<link rel="stylesheet" href="/a.css">'), '/index.html')).toThrow(
      /0 module scripts/,
    );
  });

  it("adds each dashboard address's screens and what they import, less what the app's start brings", () => {
    const chunk = (fileName: string, facade: string | null, imports: string[] = []) => ({
      type: 'chunk' as const,
      fileName,
      facadeModuleId: facade && `/repo/src/web/${facade}`,
      imports,
    });
    const modules = [...new Set(SCREENS_BY_ADDRESS.flatMap((address) => address.modules))];
    const bundle = Object.fromEntries(
      [
        chunk('assets/start-b.js', null),
        chunk('assets/screens-s.js', null, ['assets/start-b.js']),
        chunk('assets/query-q.js', null),
        ...modules.map((module) =>
          chunk(`assets/${module.replace(/\W/g, '-')}.js`, module, [
            'assets/screens-s.js',
            'assets/start-b.js',
            ...(module === 'app/query-shell.tsx' ? ['assets/query-q.js'] : []),
          ]),
        ),
      ].map((c) => [c.fileName, c]),
    );
    const screens = screenFiles(bundle, ['/assets/start-b.js']);
    const home = screens.find(({ pattern }) => new RegExp(pattern).test('/user-dashboard'));
    expect(home?.files).toEqual([
      '/assets/app-layouts-user-layout-tsx.js',
      '/assets/screens-s.js',
      '/assets/features-catalogue-user-home-page-tsx.js',
      '/assets/app-query-shell-tsx.js',
      '/assets/query-q.js',
    ]);
    const { [Object.keys(bundle).find((name) => name.includes('user-home-page'))!]: _gone, ...without } =
      bundle;
    expect(() => screenFiles(without, [])).toThrow(/user-home-page\.tsx/);
  });

  it('refuses a stylesheet that already says which media it is for, rather than overriding it', () => {
    expect(() =>
      firstPaintHtml(built('<link rel="stylesheet" href="/assets/print.css" media="print">'), '/index.html'),
    ).toThrow(/already has a media/);
  });

  it("the landing page's script and its imports are fetched at low priority; its inline CSS is left alone", () => {
    const html = firstPaintHtml(
      built(
        '<script type="module" crossorigin src="/assets/landing-a.js"></script>' +
          '<link rel="modulepreload" crossorigin href="/assets/shared-start-b.js">' +
          '<link rel="stylesheet" crossorigin href="/assets/landing-c.css">',
      ),
      '/landing.html',
    );
    expect(html).toContain(
      '<script type="module" crossorigin src="/assets/landing-a.js" fetchpriority="low">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/shared-start-b.js" fetchpriority="low">',
    );
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/landing-c.css">');
  });

  it('leaves any other page as it is', () => {
    const page = built('<link rel="stylesheet" href="/a.css"><script type="module" src="/b.js"></script>');
    expect(firstPaintHtml(page, '/other.html')).toBe(page);
  });
});
