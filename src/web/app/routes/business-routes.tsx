import type { RouteObject } from 'react-router';
import { RequireRole } from '../guards';
import { lazyPage } from '../lazy-page';
import { RouteError } from '../route-error';
import { page } from './page';

const BusinessLayout = lazyPage(() => import('../layouts/business-layout'));
const BusinessHomePage = lazyPage(() => import('../../features/wallet/business-home-page'));
const BusinessGiftCardsPage = lazyPage(() => import('../../features/catalogue/business-giftcards-page'));
const BusinessWalletPage = lazyPage(() => import('../../features/wallet/business-wallet-page'));
const NotificationsPage = lazyPage(() => import('../../features/notifications/notifications-page'));
const BusinessAccountPage = lazyPage(() => import('../../features/accounts/business-account-page'));
const SupportPage = lazyPage(() => import('../../features/site/support-page'));
const RedeemPage = lazyPage(() => import('../../features/cards/redeem-page'));
const ReceiptPage = lazyPage(() => import('../../features/cards/receipt-page'));
const SoldCardsPage = lazyPage(() => import('../../features/cards/sold-cards-page'));
const SoldCardPage = lazyPage(() => import('../../features/cards/sold-card-page'));
const SalesPage = lazyPage(() => import('../../features/cards/sales-page'));
const RedemptionsPage = lazyPage(() => import('../../features/cards/redemptions-page'));
const WalletStatementPage = lazyPage(() => import('../../features/wallet/wallet-statement-page'));

/**
 * Starts downloading the dashboard's frame, and its home when that is the address, at once. Resolves when
 * the code is here (or failed to come).
 */
export function preloadBusinessScreens(pathname: string): Promise<unknown> {
  const home = /^\/dashboard\/?$/.test(pathname);
  return Promise.all([BusinessLayout.preload(), ...(home ? [BusinessHomePage.preload()] : [])]);
}

/** Seed §2 "Business dashboard": /dashboard and its menu's screens, for a signed-in business only. */
export const businessRoutes: RouteObject = {
  path: '/dashboard',
  element: page(
    <RequireRole role="business">
      <BusinessLayout />
    </RequireRole>,
  ),
  errorElement: <RouteError />,
  children: [
    { index: true, element: page(<BusinessHomePage />) },
    { path: 'giftcard', element: page(<BusinessGiftCardsPage />) },
    { path: 'redeem', element: page(<RedeemPage />) },
    { path: 'redeem/receipts/:id', element: page(<ReceiptPage />) },
    { path: 'sold-cards', element: page(<SoldCardsPage />) },
    { path: 'sold-cards/:cardId', element: page(<SoldCardPage />) },
    { path: 'sales', element: page(<SalesPage />) },
    { path: 'sales/redemptions', element: page(<RedemptionsPage />) },
    { path: 'wallet', element: page(<BusinessWalletPage />) },
    { path: 'wallet/statement', element: page(<WalletStatementPage />) },
    { path: 'notify', element: page(<NotificationsPage title="Notification" />) },
    { path: 'support', element: page(<SupportPage />) },
    { path: 'account', element: page(<BusinessAccountPage />) },
  ],
};
