import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { REHYDRATE_TIMEOUT_MS } from './lib/constants';
import { useGiftCardStore, whenHydrated } from './lib/store';
import './index.css';

await whenHydrated(REHYDRATE_TIMEOUT_MS);

const root = createRoot(document.getElementById('root')!);
const render = (node: ReactNode) => root.render(<StrictMode>{node}</StrictMode>);
const { bizClient, userData } = useGiftCardStore.getState();

// A signed-out first visit to / is the landing page, which has a 100 KB budget: it renders without the
// router (its links are plain links), and the router arrives with the first screen that needs it.
if (window.location.pathname === '/' && !bizClient && !userData) {
  const { default: LandingPage } = await import('./features/site/landing-page');
  render(<LandingPage />);
} else {
  const [{ RouterProvider }, { router }] = await Promise.all([
    import('react-router'),
    import('./app/router'),
  ]);
  render(<RouterProvider router={router} />);
}
