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
 * Opening a dashboard by its address: its screens' code is fetched in parallel at start-up instead of one
 * lazy chunk after another as React renders the query shell, the layout and then the screen.
 */
export function preloadScreens(
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
  role: 'business' | 'user' | null,
) {
  if (role === 'user' && pathname.startsWith('/user-dashboard')) {
    preloadUserScreens(pathname, search);
    QueryShell.preload();
  } else if (role === 'business' && pathname.startsWith('/dashboard')) {
    QueryShell.preload();
    preloadBusinessScreens(pathname);
  }
}

/**
 * A page whose HTML the build pre-rendered (`data-prerendered` on the root): its code, and the query shell's,
 * before React draws over that HTML, so the reader never sees a spinner replace the page.
 */
export async function screenOfPrerenderedPage(pathname: string): Promise<void> {
  const page = prerenderedScreens[pathname];
  if (page) await Promise.all([page.screen.ready(), ...(page.inQueryShell ? [QueryShell.ready()] : [])]);
}
