import type { Plugin } from 'vite';

/**
 * How the web app's JavaScript is cut into files (ADR 018). Left to itself the bundler made 143 files, a
 * signed-in home page loading 14 before the app starts and 23 more for its screen: over HTTP/1.1 (six
 * connections per host) on a slow phone network each round of six costs a round trip. Four groups:
 * - `shared-start`: the modules the pre-rendered landing page's small script shares with the SPA (that page
 *   must not download React: issue 14's 65 KB budget, which `npm run build` checks);
 * - `start`: everything else the SPA's entry (index.html) loads before it runs, in one file;
 * - `query`: TanStack Query, which every screen that fetches data needs;
 * - `screens`: what the screens have in common: the shared components, the dashboards' frame, each
 *   feature's API module and hooks, money formatting.
 * Each screen stays its own file; the big, rarely needed libraries (the chart, the QR scanner, the dialogs)
 * stay where the bundler puts them, loaded only by the screens that use them.
 */
const SCREENS = [
  /src[\\/]web[\\/]components[\\/]/,
  /src[\\/]web[\\/]app[\\/]layouts[\\/]dashboard-shell\.tsx$/,
  /src[\\/]web[\\/]features[\\/][^\\/]+[\\/]([\w-]*api|use-[\w-]+)\.tsx?$/,
  /src[\\/]shared[\\/](money|public-config)\.ts$/,
];
/** The dialogs bring SweetAlert2 (20 KB): only the screens that show one load them. */
const SCREENS_LEAVE_OUT = /[\\/](dialogs|use-purchase)\.ts$/;

export function appChunks() {
  const landingModules = new Set<string>();
  const plugin: Plugin = {
    name: 'giftmart-landing-modules',
    apply: 'build',
    buildEnd() {
      const visit = (id: string) => {
        if (landingModules.has(id)) return;
        landingModules.add(id);
        for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
      };
      for (const id of this.getModuleIds()) if (/[\\/]landing\.(html|ts)$/.test(id)) visit(id);
      if (!landingModules.size) this.error('The landing page entry (landing.html) is not in the build');
    },
  };
  const codeSplitting = {
    groups: [
      {
        name: 'shared-start',
        test: (id: string) => landingModules.has(id) && !/[\\/]landing\.(html|ts|css)$/.test(id),
        includeDependenciesRecursively: false,
        priority: 4,
      },
      {
        name: 'start',
        tags: ['$initial' as const],
        test: (id: string) => !landingModules.has(id) && !/[\\/]src[\\/]web[\\/]main\.tsx$/.test(id),
        // Not the landing page's modules, even where a start module imports them: they stay in their own
        // small file that both pages load.
        includeDependenciesRecursively: false,
        priority: 3,
      },
      { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 2 },
      {
        name: 'screens',
        test: (id: string) =>
          !landingModules.has(id) && !SCREENS_LEAVE_OUT.test(id) && SCREENS.some((re) => re.test(id)),
        includeDependenciesRecursively: false,
        priority: 1,
      },
    ],
  };
  return { plugin, codeSplitting };
}
