import { createBrowserRouter } from 'react-router';
import { lazyPage } from './lazy-page';
import { RouteError } from './route-error';
import { businessRoutes } from './routes/business-routes';
import { page } from './routes/page';
import { everyoneRoutes, notFoundRoute, signedOutRoutes } from './routes/public-routes';
import { userRoutes } from './routes/user-routes';
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
