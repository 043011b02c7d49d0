import { createBrowserRouter } from 'react-router';
import { lazyPage } from './lazy-page';
import { RouteError } from './route-error';
import { businessRoutes, preloadBusinessScreens } from './routes/business-routes';
import { page } from './routes/page';
import { everyoneRoutes, notFoundRoute, prerenderedScreens, signedOutRoutes } from './routes/public-routes';
import { preloadUserScreens, userRoutes } from './routes/user-routes';
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
        children: [...everyoneRoutes, businessRoutes, userRoutes],
      },
      notFoundRoute,
    ],
  },
]);

/**
 * The screens an address opens, fetched at start-up instead of one lazy chunk after another as React renders
 * the query shell, the layout and then the screen: a dashboard's by its address, and a public page whose HTML
 * the build pre-rendered. Resolves when the screens are here (or failed to come): for a pre-rendered page,
 * the app waits for that before it draws over the HTML, so the reader never sees a spinner replace the page.
 */
export async function preloadScreens(
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
  role: 'business' | 'user' | null,
): Promise<void> {
  if (role === 'user' && pathname.startsWith('/user-dashboard')) {
    preloadUserScreens(pathname, search);
    void QueryShell.preload();
  } else if (role === 'business' && pathname.startsWith('/dashboard')) {
    void QueryShell.preload();
    preloadBusinessScreens(pathname);
  }
  const prerendered = prerenderedScreens[pathname];
  if (prerendered) {
    await Promise.all([
      prerendered.screen.preload(),
      ...(prerendered.inQueryShell ? [QueryShell.preload()] : []),
    ]);
  }
}
