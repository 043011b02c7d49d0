import type { RouteObject } from 'react-router';
import { fetchCatalogueEarly } from '../../features/catalogue/api';
import { RequireRole } from '../guards';
import { lazyPage } from '../lazy-page';
import { RouteError } from '../route-error';
import { page } from './page';

const UserLayout = lazyPage(() => import('../layouts/user-layout'));
const UserHomePage = lazyPage(() => import('../../features/catalogue/user-home-page'));
const UserProfilePage = lazyPage(() => import('../../features/accounts/user-profile-page'));
const UserMyCardsPage = lazyPage(() => import('../../features/cards/user-mycards-page'));
const NotificationsPage = lazyPage(() => import('../../features/notifications/notifications-page'));
const SupportPage = lazyPage(() => import('../../features/site/support-page'));
const LegacyCardLinkPage = lazyPage(() => import('../../features/legacy/legacy-card-link-page'));
const UserCardPage = lazyPage(() => import('../../features/orders/user-card-page'));
const OrderResultPage = lazyPage(() => import('../../features/orders/order-result-page'));
const OrdersPage = lazyPage(() => import('../../features/orders/orders-page'));
const OrderReceiptPage = lazyPage(() => import('../../features/orders/order-receipt-page'));
const PurchasedCardPage = lazyPage(() => import('../../features/cards/purchased-card-page'));
const GiftsPage = lazyPage(() => import('../../features/cards/gifts-page'));

/**
 * Starts downloading the dashboard's frame, and its home (the catalogue's code and its first page of
 * cards) when that is the address, at once. Resolves when the code is here (or failed to come).
 */
export function preloadUserScreens(pathname: string, search: string): Promise<unknown> {
  // The data first: a browser opens six connections per host, and the code can wait for the last one.
  const home = /^\/user-dashboard\/?$/.test(pathname);
  if (home) fetchCatalogueEarly((new URLSearchParams(search).get('q') ?? '').trim());
  return Promise.all([UserLayout.preload(), ...(home ? [UserHomePage.preload()] : [])]);
}

/** Seed §2 "User dashboard": /user-dashboard and its screens, for a signed-in user only. */
export const userRoutes: RouteObject = {
  path: '/user-dashboard',
  element: page(
    <RequireRole role="user">
      <UserLayout />
    </RequireRole>,
  ),
  errorElement: <RouteError />,
  children: [
    { index: true, element: page(<UserHomePage />) },
    { path: 'profile', element: page(<UserProfilePage />) },
    { path: 'mycards', element: page(<UserMyCardsPage />) },
    { path: 'notify', element: page(<NotificationsPage title="Notifications" />) },
    { path: 'support', element: page(<SupportPage />) },
    // The old app's card-detail route was the literal text "id" (seed §2); its links land here.
    { path: 'card/id', element: page(<LegacyCardLinkPage />) },
    { path: 'card/:id', element: page(<UserCardPage />) },
    { path: 'orders', element: page(<OrdersPage />) },
    { path: 'orders/:orderId', element: page(<OrderResultPage />) },
    { path: 'orders/:orderId/receipt', element: page(<OrderReceiptPage />) },
    { path: 'mycards/:cardId', element: page(<PurchasedCardPage />) },
    { path: 'gifts', element: page(<GiftsPage />) },
  ],
};
