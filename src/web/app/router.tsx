import { createBrowserRouter, matchRoutes } from 'react-router';
import { lazyPage } from './lazy-page';
import { RouteError } from './route-error';
import { businessRoutes } from './routes/business-routes';
import { page, type ScreenHandle } from './routes/page';
import { everyoneRoutes, notFoundRoute, prerenderedScreens, signedOutRoutes } from './routes/public-routes';
import { fetchUserDataEarly, userRoutes } from './routes/user-routes';
import { SessionSync } from './session-sync';

const QueryShell = lazyPage(() => import('./query-shell'));

/** Every route, composed from the lists per role in ./routes. */
export const router = createBrowserRouter([
  {
    element: <SessionSync />,
    errorElement: <RouteError />,
    children: [
      ...signedOutRoutes,
      {
        // Screens that fetch data share one TanStack Query cache, loaded with them.
        element: page(<QueryShell />),
        handle: { screen: QueryShell } satisfies ScreenHandle,
        children: [...everyoneRoutes, businessRoutes, userRoutes],
      },
      notFoundRoute,
    ],
  },
]);

/**
 * The screens an address opens, fetched at start-up instead of one lazy chunk after another as React renders
 * the query shell, the layout and then the screen: a dashboard's by its address, and a public page whose HTML
 * the build pre-rendered. Resolves when the screens are here (or failed to come). The app waits for that
 * before it draws (main.tsx): a screen whose code is here draws at once, where one that suspends shows its
 * spinner and, once shown, React holds the screen back for 300 ms more (its fallback throttle), which put the
 * catalogue's first screen 0.3 s behind its code. For a pre-rendered page it also means the reader never sees
 * a spinner replace the page.
 */
export async function preloadScreens(
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
  role: 'business' | 'user' | null,
): Promise<void> {
  const loading: Promise<unknown>[] = [];
  const dashboard = role === 'user' ? '/user-dashboard' : role === 'business' ? '/dashboard' : null;
  if (dashboard && (pathname === dashboard || pathname.startsWith(`${dashboard}/`))) {
    if (role === 'user') fetchUserDataEarly(pathname, search);
    // Every screen on the address's route: the query shell, the dashboard's frame and the screen itself.
    for (const { route } of matchRoutes(router.routes, pathname) ?? []) {
      const handle = route.handle as ScreenHandle | undefined;
      if (handle) loading.push(handle.screen.preload());
    }
  }
  const prerendered = prerenderedScreens[pathname];
  if (prerendered) {
    loading.push(prerendered.screen.preload(), ...(prerendered.inQueryShell ? [QueryShell.preload()] : []));
  }
  await Promise.all(loading);
}
