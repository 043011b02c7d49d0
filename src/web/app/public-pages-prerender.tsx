import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import SelectAccountPage from '../features/accounts/select-account-page';
import FaqsPage from '../features/site/faqs-page';
import PublicSupportPage from '../features/site/public-support-page';
import TermsPage from '../features/site/terms-page';

/**
 * The public pages whose HTML the build writes (besides the landing page), and the file each goes to. Not the
 * forms (log in, register, check a balance): what someone typed before the app took over would be lost.
 */
export const PRERENDERED_PAGES: { path: string; file: string; Page: ComponentType }[] = [
  { path: '/faqs', file: 'faqs.html', Page: FaqsPage },
  { path: '/terms', file: 'terms.html', Page: TermsPage },
  { path: '/support', file: 'support.html', Page: PublicSupportPage },
  { path: '/select-account', file: 'select-account.html', Page: SelectAccountPage },
];

/**
 * Each page as React first draws it in the browser (the public config still loading), run by
 * scripts/prerender.mjs at build time (issue 14): the page reads without JavaScript, and the app, once loaded,
 * draws the same thing over it (src/web/main.tsx waits for the page's code first, so no spinner comes between).
 */
export function renderPublicPages(): { path: string; file: string; html: string }[] {
  return PRERENDERED_PAGES.map(({ path, file, Page }) => ({
    path,
    file,
    html: renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouter location={path}>
          <Page />
        </StaticRouter>
      </QueryClientProvider>,
    ),
  }));
}
