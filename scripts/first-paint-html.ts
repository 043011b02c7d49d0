import type { Plugin } from 'vite';

/** The attribute that marks the SPA's stylesheet as waiting for the app (src/web/lib/deferred-styles.ts). */
export const DEFERRED_STYLE_ATTRIBUTE = 'data-deferred-style';

/**
 * The screens a dashboard's address opens, asked for with the app's code (ADR 029): the app would ask for
 * them itself only once its code has arrived and run (`preloadScreens`, src/web/app/router.tsx, whose choice
 * this follows), one round trip later on a slow network. Source modules under src/web; the build fails when
 * one has no chunk of its own. An address matches the first pattern that fits.
 */
export const SCREENS_BY_ADDRESS: readonly { pattern: string; modules: readonly string[] }[] = [
  {
    pattern: '^/user-dashboard/?$',
    modules: ['app/layouts/user-layout.tsx', 'features/catalogue/user-home-page.tsx', 'app/query-shell.tsx'],
  },
  { pattern: '^/user-dashboard/', modules: ['app/layouts/user-layout.tsx', 'app/query-shell.tsx'] },
  {
    pattern: '^/dashboard/?$',
    modules: [
      'app/layouts/business-layout.tsx',
      'features/wallet/business-home-page.tsx',
      'app/query-shell.tsx',
    ],
  },
  { pattern: '^/dashboard/', modules: ['app/layouts/business-layout.tsx', 'app/query-shell.tsx'] },
];

/** Per address pattern, the files its screens need beyond the app's start (see SCREENS_BY_ADDRESS). */
export type ScreenFiles = readonly { pattern: string; files: readonly string[] }[];

/**
 * index.html's script (issue 14, ADR 029): asks for the app's code once the loading screen has painted (the
 * browser's first contentful paint), with the screens the address opens, where the tags Vite wrote had the
 * browser ask for the code while it parsed and the app ask for the screens once that code had run. Asked for
 * before the paint, the code raced it: on a fast connection the start files sometimes arrived first, and
 * Lighthouse then counted their download and evaluation as part of the paint (its simulated first paint
 * jumped from about 0.7 to 1.7 s). It asks at once where the browser cannot say when it painted, and in a
 * tab that is not visible (which paints nothing until shown); and after three seconds whatever happened. Inline
 * (the server's CSP allows it by its hash, src/server/plugins/web.ts): a file of its own would cost one more
 * round trip before the code.
 *
 * It also carries a press over the app's drawing. The app draws its own page over a pre-rendered one rather
 * than hydrating it, so a link pressed on the build's copy and released on the app's makes no click: the two
 * halves fall on different elements (a CI run of the browser tests lost one on /select-account). From the
 * first moment, the loader notes a plain press (main button, no key held) on a link of the page; a release on
 * the app's link to the same address, once the pressed link is gone, clicks it as the one press would have.
 * The app calls `giftmartPageDrawn` when its page is in place (src/web/main.tsx): no press is noted after
 * that, and the loader stops listening once none is held.
 */
export function afterFirstPaintLoader(
  entry: string,
  preloads: readonly string[],
  screens: ScreenFiles,
): string {
  const code = JSON.stringify({ entry, preloads, screens }).replaceAll('<', '\\u003c');
  return `(function () {
      var code = ${code};
      var started = false;
      function add(tag, attributes) {
        var element = document.createElement(tag);
        element.crossOrigin = '';
        for (var name in attributes) element[name] = attributes[name];
        document.head.appendChild(element);
      }
      function start() {
        if (started) return;
        started = true;
        var screen = code.screens.filter(function (s) { return new RegExp(s.pattern).test(location.pathname); })[0];
        code.preloads.concat(screen ? screen.files : []).forEach(function (href) {
          add('link', { rel: 'modulepreload', href: href });
        });
        add('script', { type: 'module', src: code.entry });
      }
      // A press on a link of the page, carried over the app's drawing: see the doc above.
      var held = null;
      var drawn = false;
      function plain(event) {
        return event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
      }
      function linkIn(target) {
        var link = target instanceof Element ? target.closest('a[href]') : null;
        var root = document.getElementById('root');
        return link && root && root.contains(link) ? link : null;
      }
      function stopCarrying() {
        document.removeEventListener('pointerdown', pressed, true);
        document.removeEventListener('pointerup', released, true);
      }
      function pressed(event) {
        held = !drawn && plain(event) ? linkIn(event.target) : null;
      }
      function released(event) {
        var before = held;
        held = null;
        // A link still on the page gets the browser's own click.
        if (before && !before.isConnected && plain(event)) {
          var link = linkIn(event.target);
          if (link && link.getAttribute('href') === before.getAttribute('href')) link.click();
        }
        if (drawn) stopCarrying();
      }
      document.addEventListener('pointerdown', pressed, true);
      document.addEventListener('pointerup', released, true);
      window.giftmartPageDrawn = function () {
        drawn = true;
        if (!held) stopCarrying();
      };
      var Observer = window.PerformanceObserver;
      var types = (Observer && Observer.supportedEntryTypes) || [];
      if (document.visibilityState !== 'visible' || types.indexOf('paint') < 0) {
        if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
        else start();
        return;
      }
      new Observer(function (list, observer) {
        if (!list.getEntriesByName('first-contentful-paint').length) return;
        observer.disconnect();
        start();
      }).observe({ type: 'paint', buffered: true });
      setTimeout(start, 3000);
    })();`;
}

const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"<>]+)"><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"<>]+)">/g;

/** A built chunk as far as screenFiles needs it (rolldown's OutputChunk). */
interface BuiltChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  imports?: readonly string[];
}

/**
 * SCREENS_BY_ADDRESS in built files: each listed module's chunk and every chunk it imports, leaving out the
 * files the app's start already brings (`start`, addresses as index.html writes them).
 */
export function screenFiles(bundle: Record<string, BuiltChunk>, start: readonly string[]): ScreenFiles {
  const chunks = Object.values(bundle).filter((chunk) => chunk.type === 'chunk');
  const chunkOf = (module: string) => {
    const found = chunks.find((chunk) =>
      chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(`/src/web/${module}`),
    );
    if (!found) throw new Error(`No chunk of its own for src/web/${module} (SCREENS_BY_ADDRESS)`);
    return found;
  };
  return SCREENS_BY_ADDRESS.map(({ pattern, modules }) => {
    const files = new Set<string>();
    const visit = (chunk: BuiltChunk) => {
      const href = `/${chunk.fileName}`;
      if (files.has(href) || start.includes(href)) return;
      files.add(href);
      for (const imported of chunk.imports ?? []) {
        const next = bundle[imported];
        if (next) visit(next);
      }
    };
    modules.forEach((module) => visit(chunkOf(module)));
    return { pattern, files: [...files] };
  });
}

/**
 * The built pages' first paint waits for nothing but their own HTML (issue 14, ADR 018):
 * - index.html (every page but `/`) paints its inline-styled loading screen at once: its stylesheet is
 *   fetched as `media="print"` (not render-blocking) and the app switches it on, and waits for it, before
 *   React draws anything, so no screen is ever seen unstyled; its script tags become a loader that asks
 *   for them once the loading screen has painted (afterFirstPaintLoader, ADR 029);
 * - landing.html is already complete HTML with its CSS inline; its small script (menu, lazy sections) is
 *   fetched at low priority so it never competes with the page itself.
 */
export function firstPaintHtml(
  html: string,
  page: string,
  /** The build's chunks, to find the screens of SCREENS_BY_ADDRESS; without it, no screens are added. */
  bundle?: Record<string, BuiltChunk>,
): string {
  if (page.endsWith('landing.html')) {
    return html.replace(/<(script type="module"|link rel="modulepreload")( [^>]*)?>/g, (tag: string) =>
      tag.replace(/>$/, ' fetchpriority="low">'),
    );
  }
  if (page.endsWith('index.html')) {
    const styled = html.replace(/<link rel="stylesheet"([^>]*)>/g, (_tag, attributes: string) => {
      if (/\smedia=/.test(attributes)) throw new Error(`The stylesheet link already has a media: ${_tag}`);
      return `<link rel="stylesheet"${attributes} media="print" ${DEFERRED_STYLE_ATTRIBUTE}>`;
    });
    const entries = [...styled.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
    if (entries.length !== 1) throw new Error(`index.html has ${entries.length} module scripts, not one`);
    const preloads = [...styled.matchAll(MODULE_PRELOAD)]
      .map((match) => match[1]!)
      .filter((href) => href !== entries[0]);
    const screens = bundle ? screenFiles(bundle, [...entries, ...preloads]) : [];
    const loader = afterFirstPaintLoader(entries[0]!, preloads, screens);
    return styled.replace(MODULE_PRELOAD, '').replace(MODULE_SCRIPT, () => `<script>${loader}</script>`);
  }
  return html;
}

/** The Vite plugin: applies firstPaintHtml to each built HTML page after Vite has put its tags in. */
export function firstPaintFirst(): Plugin {
  return {
    name: 'giftmart-first-paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) =>
        firstPaintHtml(html, ctx.path, ctx.bundle as Record<string, BuiltChunk> | undefined),
    },
  };
}
