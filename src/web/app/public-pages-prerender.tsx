import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import BusinessLoginPage from '../features/accounts/business-login-page';
import RegisterBusinessPage from '../features/accounts/register-business-page';
import RegisterUserPage from '../features/accounts/register-user-page';
import SelectAccountPage from '../features/accounts/select-account-page';
import UserLoginPage from '../features/accounts/user-login-page';
import BalancePage from '../features/cards/balance-page';
import FaqsPage from '../features/site/faqs-page';
import { PublicPageLayout } from '../features/site/public-page-layout';
import PublicSupportPage from '../features/site/public-support-page';
import TermsPage from '../features/site/terms-page';
import { seedPublicConfig } from '../features/site/use-public-config';
import { DEFAULT_CURRENCY } from '../../shared/money';
import { DEFAULT_SUPPORT_EMAIL, publicConfigScript, type PublicConfig } from '../../shared/public-config';

/**
 * The public pages whose HTML the build writes (besides the landing page), and the file each goes to. The
 * log-in, sign-up and balance forms among them: what someone types before the app takes over is carried into the
 * form it draws (main.tsx, lib/typed-fields.ts), and until then their submit button is disabled, so the
 * browser never sends the form itself (a password in the address).
 */
export const PRERENDERED_PAGES: { path: string; file: string; Page: ComponentType }[] = [
  { path: '/faqs', file: 'faqs.html', Page: FaqsPage },
  { path: '/terms', file: 'terms.html', Page: TermsPage },
  { path: '/support', file: 'support.html', Page: PublicSupportPage },
  { path: '/select-account', file: 'select-account.html', Page: SelectAccountPage },
  { path: '/login', file: 'login.html', Page: UserLoginPage },
  { path: '/register', file: 'register.html', Page: RegisterUserPage },
  { path: '/business/login', file: 'business-login.html', Page: BusinessLoginPage },
  { path: '/business/register', file: 'business-register.html', Page: RegisterBusinessPage },
  // In the public chrome, as the app draws it through its layout route (PublicLayoutRoute).
  {
    path: '/balance',
    file: 'balance.html',
    Page: () => <PublicPageLayout>{<BalancePage />}</PublicPageLayout>,
  },
];

/** A form's submit buttons, disabled in the built page: only the app sends a form. */
function submitsDisabled(html: string): string {
  // Not one already disabled (an attribute, not a class such as Tailwind's `disabled:opacity-50`).
  return html.replace(
    /<button type="submit"(?![^>]*\sdisabled(?:[\s=>]))/g,
    '<button type="submit" disabled=""',
  );
}

/** The config the pages are drawn with: the server's defaults, which a server set otherwise writes over. */
const BUILD_CONFIG: PublicConfig = { currency: DEFAULT_CURRENCY, supportEmail: DEFAULT_SUPPORT_EMAIL };

/** The element that carries BUILD_CONFIG in each page, for the app to start from. */
export const PRERENDERED_CONFIG_SCRIPT = publicConfigScript(BUILD_CONFIG);

/**
 * Each page as React draws it in the browser once the public config is known (the page carries it:
 * PRERENDERED_CONFIG_SCRIPT), run by scripts/prerender.mjs at build time (issue 14): the page reads without
 * JavaScript, support address included, and the app, once loaded, draws the same thing over it
 * (src/web/main.tsx waits for the page's code first, so no spinner comes between).
 */
export function renderPublicPages(): { path: string; file: string; html: string }[] {
  return PRERENDERED_PAGES.map(({ path, file, Page }) => {
    const client = new QueryClient();
    seedPublicConfig(client, BUILD_CONFIG);
    return {
      path,
      file,
      html: submitsDisabled(
        renderToStaticMarkup(
          <QueryClientProvider client={client}>
            <StaticRouter location={path}>
              <Page />
            </StaticRouter>
          </QueryClientProvider>,
        ),
      ),
    };
  });
}
