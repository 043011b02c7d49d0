import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { PublicOnly, RequireRole } from './guards';
import { lazyPage } from './lazy-page';
import { RouteError } from './route-error';
import { SessionSync } from './session-sync';

const QueryShell = lazyPage(() => import('./query-shell'));
const LandingPage = lazyPage(() => import('../features/landing/landing-page'));
const SelectAccountPage = lazyPage(() => import('../features/auth/select-account-page'));
const UserLoginPage = lazyPage(() => import('../features/auth/user-login-page'));
const BusinessLoginPage = lazyPage(() => import('../features/auth/business-login-page'));
const RegisterUserPage = lazyPage(() => import('../features/auth/register-user-page'));
const RegisterBusinessPage = lazyPage(() => import('../features/auth/register-business-page'));
const FaqsPage = lazyPage(() => import('../features/support/faqs-page'));
const TermsPage = lazyPage(() => import('../features/support/terms-page'));
const NotFoundPage = lazyPage(() => import('../features/support/not-found-page'));

const BusinessLayout = lazyPage(() => import('../features/business/business-layout'));
const BusinessHomePage = lazyPage(() => import('../features/business/business-home-page'));
const BusinessGiftCardsPage = lazyPage(() => import('../features/business/business-giftcards-page'));
const BusinessWalletPage = lazyPage(() => import('../features/business/business-wallet-page'));
const BusinessNotificationsPage = lazyPage(() => import('../features/business/business-notifications-page'));
const BusinessAccountPage = lazyPage(() => import('../features/business/business-account-page'));
const SupportPage = lazyPage(() => import('../features/support/support-page'));

const UserLayout = lazyPage(() => import('../features/user/user-layout'));
const UserHomePage = lazyPage(() => import('../features/user/user-home-page'));
const UserProfilePage = lazyPage(() => import('../features/user/user-profile-page'));
const UserMyCardsPage = lazyPage(() => import('../features/user/user-mycards-page'));
const UserNotificationsPage = lazyPage(() => import('../features/user/user-notifications-page'));
const UserCardPage = lazyPage(() => import('../features/user/user-card-page'));
const OrderResultPage = lazyPage(() => import('../features/purchases/order-result-page'));
const PurchasedCardPage = lazyPage(() => import('../features/purchases/purchased-card-page'));

function PageLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-live="polite">
      <span
        className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600"
        aria-hidden="true"
      />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

const page = (node: ReactNode) => <Suspense fallback={<PageLoading />}>{node}</Suspense>;
const publicPage = (node: ReactNode) => page(<PublicOnly>{node}</PublicOnly>);

export const router = createBrowserRouter([
  {
    element: <SessionSync />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: publicPage(<LandingPage />) },
      { path: '/select-account', element: publicPage(<SelectAccountPage />) },
      { path: '/login', element: publicPage(<UserLoginPage />) },
      { path: '/register', element: publicPage(<RegisterUserPage />) },
      { path: '/business/login', element: publicPage(<BusinessLoginPage />) },
      { path: '/business/register', element: publicPage(<RegisterBusinessPage />) },
      {
        // Screens that fetch data share one TanStack Query cache, loaded with them.
        element: page(<QueryShell />),
        children: [
          { path: '/faqs', element: page(<FaqsPage />) },
          { path: '/terms', element: page(<TermsPage />) },
          {
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
              { path: 'wallet', element: page(<BusinessWalletPage />) },
              { path: 'notify', element: page(<BusinessNotificationsPage />) },
              { path: 'support', element: page(<SupportPage />) },
              { path: 'account', element: page(<BusinessAccountPage />) },
            ],
          },
          {
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
              { path: 'notify', element: page(<UserNotificationsPage />) },
              { path: 'support', element: page(<SupportPage />) },
              { path: 'card/:id', element: page(<UserCardPage />) },
              { path: 'orders/:orderId', element: page(<OrderResultPage />) },
              { path: 'mycards/:cardId', element: page(<PurchasedCardPage />) },
            ],
          },
        ],
      },
      { path: '*', element: page(<NotFoundPage />) },
    ],
  },
]);
