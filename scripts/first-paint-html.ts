import type { Plugin } from 'vite';

/** The attribute that marks the SPA's stylesheet as waiting for the app (src/web/lib/deferred-styles.ts). */
export const DEFERRED_STYLE_ATTRIBUTE = 'data-deferred-style';

/**
 * The built pages' first paint waits for nothing but their own HTML (issue 14, ADR 018):
 * - index.html (every page but `/`) paints its inline-styled loading screen at once: its stylesheet is
 *   fetched as `media="print"` (not render-blocking) and the app switches it on, and waits for it, before
 *   React draws anything, so no screen is ever seen unstyled;
 * - landing.html is already complete HTML with its CSS inline; its small script (menu, lazy sections) is
 *   fetched at low priority so it never competes with the page itself.
 */
export function firstPaintHtml(html: string, page: string): string {
  if (page.endsWith('landing.html')) {
    return html.replace(/<(script type="module"|link rel="modulepreload")( [^>]*)?>/g, (tag: string) =>
      tag.replace(/>$/, ' fetchpriority="low">'),
    );
  }
  if (page.endsWith('index.html')) {
    return html.replace(/<link rel="stylesheet"([^>]*)>/g, (_tag, attributes: string) => {
      if (/\smedia=/.test(attributes)) throw new Error(`The stylesheet link already has a media: ${_tag}`);
      return `<link rel="stylesheet"${attributes} media="print" ${DEFERRED_STYLE_ATTRIBUTE}>`;
    });
  }
  return html;
}

/** The Vite plugin: applies firstPaintHtml to each built HTML page after Vite has put its tags in. */
export function firstPaintFirst(): Plugin {
  return {
    name: 'giftmart-first-paint-first',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html, ctx) => firstPaintHtml(html, ctx.path) },
  };
}
