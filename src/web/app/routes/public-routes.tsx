import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy-page';
import { publicScreen, screen } from './page';

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
  { path: '/', ...publicScreen(LandingPage) },
  { path: '/select-account', ...publicScreen(SelectAccountPage) },
  { path: '/login', ...publicScreen(UserLoginPage) },
  { path: '/register', ...publicScreen(RegisterUserPage) },
  { path: '/business/login', ...publicScreen(BusinessLoginPage) },
  { path: '/business/register', ...publicScreen(RegisterBusinessPage) },
];

/** Pages for everyone, signed in or not, that read the public config (in the query shell). */
export const everyoneRoutes: RouteObject[] = [
  { path: '/faqs', ...screen(FaqsPage) },
  { path: '/terms', ...screen(TermsPage) },
  // Customer Support for visitors too; the dashboards keep their own Support screen in their shell.
  { path: '/support', ...screen(PublicSupportPage) },
  // Forgot password and the mailed reset link: signed in or not (a reset signs every device out anyway).
  { path: '/forgot-password', ...screen(ForgotPasswordPage) },
  { path: '/reset-password', ...screen(ResetPasswordPage) },
  {
    // Public pages of other features, in the site's public chrome.
    ...screen(PublicLayoutRoute),
    children: [
      { path: '/balance', ...screen(BalancePage) },
      // A gift's link (from its e-mail or notification), signed in or not.
      { path: '/gifts/:id', ...screen(GiftLandingPage) },
      // The link mailed to a new e-mail address (works on any device, signed in or not).
      { path: '/confirm-email', ...screen(ConfirmEmailPage) },
      // The mail kept on this machine when no SMTP server is configured (a 404 from the API otherwise).
      { path: '/dev/mailbox', ...screen(MailboxPage) },
    ],
  },
];

/** Any other address. */
export const notFoundRoute: RouteObject = { path: '*', ...screen(NotFoundPage) };
