import { describe, expect, it } from 'vitest';
import { DEFERRED_STYLE_ATTRIBUTE, firstPaintHtml } from '../scripts/first-paint-html';

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
