import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy-page';
import { page, publicPage } from './page';

const LandingPage = lazyPage(() => import('../../features/site/landing-page'));
const SelectAccountPage = lazyPage(() => import('../../features/accounts/select-account-page'));
const UserLoginPage = lazyPage(() => import('../../features/accounts/user-login-page'));
const BusinessLoginPage = lazyPage(() => import('../../features/accounts/business-login-page'));
const RegisterUserPage = lazyPage(() => import('../../features/accounts/register-user-page'));
const RegisterBusinessPage = lazyPage(() => import('../../features/accounts/register-business-page'));
const FaqsPage = lazyPage(() => import('../../features/site/faqs-page'));
const TermsPage = lazyPage(() => import('../../features/site/terms-page'));
const PublicSupportPage = lazyPage(() => import('../../features/site/public-support-page'));
const NotFoundPage = lazyPage(() => import('../../features/site/not-found-page'));
const PublicLayoutRoute = lazyPage(() => import('../../features/site/public-layout-route'));
const BalancePage = lazyPage(() => import('../../features/cards/balance-page'));
const GiftLandingPage = lazyPage(() => import('../../features/cards/gift-landing-page'));
const MailboxPage = lazyPage(() => import('../../features/notifications/mailbox-page'));
const ForgotPasswordPage = lazyPage(() => import('../../features/accounts/forgot-password-page'));
const ResetPasswordPage = lazyPage(() => import('../../features/accounts/reset-password-page'));
const ConfirmEmailPage = lazyPage(() => import('../../features/accounts/confirm-email-page'));

/** Signed-out screens: the landing page, choosing an account type, logging in and registering. */
export const signedOutRoutes: RouteObject[] = [
  { path: '/', element: publicPage(<LandingPage />) },
  { path: '/select-account', element: publicPage(<SelectAccountPage />) },
  { path: '/login', element: publicPage(<UserLoginPage />) },
  { path: '/register', element: publicPage(<RegisterUserPage />) },
  { path: '/business/login', element: publicPage(<BusinessLoginPage />) },
  { path: '/business/register', element: publicPage(<RegisterBusinessPage />) },
];

/** Pages for everyone, signed in or not, that read the public config (in the query shell). */
export const everyoneRoutes: RouteObject[] = [
  { path: '/faqs', element: page(<FaqsPage />) },
  { path: '/terms', element: page(<TermsPage />) },
  // Customer Support for visitors too; the dashboards keep their own Support screen in their shell.
  { path: '/support', element: page(<PublicSupportPage />) },
  // Forgot password and the mailed reset link: signed in or not (a reset signs every device out anyway).
  { path: '/forgot-password', element: page(<ForgotPasswordPage />) },
  { path: '/reset-password', element: page(<ResetPasswordPage />) },
  {
    // Public pages of other features, in the site's public chrome.
    element: page(<PublicLayoutRoute />),
    children: [
      { path: '/balance', element: page(<BalancePage />) },
      // A gift's link (from its e-mail or notification), signed in or not.
      { path: '/gifts/:id', element: page(<GiftLandingPage />) },
      // The link mailed to a new e-mail address (works on any device, signed in or not).
      { path: '/confirm-email', element: page(<ConfirmEmailPage />) },
      // The mail kept on this machine when no SMTP server is configured (a 404 from the API otherwise).
      { path: '/dev/mailbox', element: page(<MailboxPage />) },
    ],
  },
];

/**
 * The screens whose HTML the build pre-renders (src/web/app/public-pages-prerender.tsx), by address, and
 * whether they sit in the query shell: `preloadScreens` fetches their code at start-up, and the app waits for
 * it before it draws over that HTML, so no spinner comes between the two.
 */
export const prerenderedScreens: Record<
  string,
  { screen: { preload(): Promise<void> }; inQueryShell: boolean }
> = {
  '/faqs': { screen: FaqsPage, inQueryShell: true },
  '/terms': { screen: TermsPage, inQueryShell: true },
  '/support': { screen: PublicSupportPage, inQueryShell: true },
  '/select-account': { screen: SelectAccountPage, inQueryShell: false },
  '/login': { screen: UserLoginPage, inQueryShell: false },
  '/register': { screen: RegisterUserPage, inQueryShell: false },
  '/business/login': { screen: BusinessLoginPage, inQueryShell: false },
  '/business/register': { screen: RegisterBusinessPage, inQueryShell: false },
};

/** Any other address. */
export const notFoundRoute: RouteObject = { path: '*', element: page(<NotFoundPage />) };
