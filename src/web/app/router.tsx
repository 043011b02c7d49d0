import { createBrowserRouter } from 'react-router';
import { lazyPage } from './lazy-page';
import { RouteError } from './route-error';
import { businessRoutes } from './routes/business-routes';
import { screen, type ScreenHandle } from './routes/page';
import { everyoneRoutes, notFoundRoute, signedOutRoutes } from './routes/public-routes';
import { fetchUserDataEarly, userRoutes } from './routes/user-routes';
import { SessionSync } from './session-sync';

const QueryShell = lazyPage(() => import('./query-shell'));

/**
 * The app's router: every route, composed from the lists per role in ./routes. Made when main.tsx asks, not as
 * this module is evaluated: making it (turning the routes into the router's own and ranking them) was most of
 * the entry's evaluation, one of the start's longest tasks on a slow phone (issue 14, total blocking time);
 * main.tsx gives it a task of its own.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <SessionSync />,
      errorElement: <RouteError />,
      children: [
        ...signedOutRoutes,
        {
          // Screens that fetch data share one TanStack Query cache, loaded with them.
          ...screen(QueryShell),
          children: [...everyoneRoutes, businessRoutes, userRoutes],
        },
        notFoundRoute,
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * The screens the router's address opens (each route names its own in its `handle`): the query shell, a
 * dashboard's frame, the page. Fetched at start-up, together, instead of one lazy chunk after another as React
 * renders them; resolves when they are here (or failed to come). The app waits for that before it draws
 * (main.tsx): a screen whose code is here draws at once, where one that suspends shows its spinner and, once
 * shown, React holds the screen back for 300 ms more (its fallback throttle), which put the catalogue's first
 * screen 0.3 s behind its code. Over a pre-rendered page it also means the reader never sees a spinner replace
 * the page. Not another role's dashboard: its guard sends the person elsewhere, so its code would only hold
 * them up.
 */
export async function preloadScreens(router: AppRouter, role: 'business' | 'user' | null): Promise<void> {
  // The router's own address and its matches, made when it was: matching again ranked every route a second
  // time (about 3.5 ms of one of the start's long tasks, 14 ms with the CPU slowed four times).
  const { location, matches } = router.state;
  const { pathname, search } = location;
  const within = (area: string) => pathname === area || pathname.startsWith(`${area}/`);
  const own = role === 'user' ? '/user-dashboard' : role === 'business' ? '/dashboard' : null;
  if (['/user-dashboard', '/dashboard'].some((area) => area !== own && within(area))) return;
  if (role === 'user' && within('/user-dashboard')) fetchUserDataEarly(pathname, search);
  const loading = matches.flatMap(({ route }) => {
    const handle = route.handle as ScreenHandle | undefined;
    return handle ? [handle.screen.preload()] : [];
  });
  await Promise.all(loading);
}
