import type { RouteObject } from 'react-router';
import { fetchCatalogueEarly } from '../../features/catalogue/api';
import { RequireRole } from '../guards';
import { lazyPage } from '../lazy-page';
import { RouteError } from '../route-error';
import { page, screen, type ScreenHandle } from './page';

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

/** The data the dashboard's address opens, asked for at start-up with its code (router.tsx `preloadScreens`). */
export function fetchUserDataEarly(pathname: string, search: string) {
  // The data first: a browser opens six connections per host, and the code can wait for the last one.
  if (/^\/user-dashboard\/?$/.test(pathname)) {
    fetchCatalogueEarly((new URLSearchParams(search).get('q') ?? '').trim());
  }
}

/** Seed §2 "User dashboard": /user-dashboard and its screens, for a signed-in user only. */
export const userRoutes: RouteObject = {
  path: '/user-dashboard',
  element: page(
    <RequireRole role="user">
      <UserLayout />
    </RequireRole>,
  ),
  handle: { screen: UserLayout } satisfies ScreenHandle,
  errorElement: <RouteError />,
  children: [
    { index: true, ...screen(UserHomePage) },
    { path: 'profile', ...screen(UserProfilePage) },
    { path: 'mycards', ...screen(UserMyCardsPage) },
    { path: 'notify', ...screen(NotificationsPage, { title: 'Notifications' }) },
    { path: 'support', ...screen(SupportPage) },
    // The old app's card-detail route was the literal text "id" (seed §2); its links land here.
    { path: 'card/id', ...screen(LegacyCardLinkPage) },
    { path: 'card/:id', ...screen(UserCardPage) },
    { path: 'orders', ...screen(OrdersPage) },
    { path: 'orders/:orderId', ...screen(OrderResultPage) },
    { path: 'orders/:orderId/receipt', ...screen(OrderReceiptPage) },
    { path: 'mycards/:cardId', ...screen(PurchasedCardPage) },
    { path: 'gifts', ...screen(GiftsPage) },
  ],
};
