import type { RouteObject } from 'react-router';
import { RequireRole } from '../guards';
import { lazyPage } from '../lazy-page';
import { RouteError } from '../route-error';
import { page, screen, type ScreenHandle } from './page';

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

/** Seed §2 "Business dashboard": /dashboard and its menu's screens, for a signed-in business only. */
export const businessRoutes: RouteObject = {
  path: '/dashboard',
  element: page(
    <RequireRole role="business">
      <BusinessLayout />
    </RequireRole>,
  ),
  handle: { screen: BusinessLayout } satisfies ScreenHandle,
  errorElement: <RouteError />,
  children: [
    { index: true, ...screen(BusinessHomePage) },
    { path: 'giftcard', ...screen(BusinessGiftCardsPage) },
    { path: 'redeem', ...screen(RedeemPage) },
    { path: 'redeem/receipts/:id', ...screen(ReceiptPage) },
    { path: 'sold-cards', ...screen(SoldCardsPage) },
    { path: 'sold-cards/:cardId', ...screen(SoldCardPage) },
    { path: 'sales', ...screen(SalesPage) },
    { path: 'sales/redemptions', ...screen(RedemptionsPage) },
    { path: 'wallet', ...screen(BusinessWalletPage) },
    { path: 'wallet/statement', ...screen(WalletStatementPage) },
    { path: 'notify', ...screen(NotificationsPage, { title: 'Notification' }) },
    { path: 'support', ...screen(SupportPage) },
    { path: 'account', ...screen(BusinessAccountPage) },
  ],
};
