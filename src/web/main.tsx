import { StrictMode, startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter, preloadScreens } from './app/router';
import { REHYDRATE_TIMEOUT_MS } from './lib/constants';
import { applyDeferredStyles } from './lib/deferred-styles';
import { useGiftCardStore, whenHydrated } from './lib/store';
import { restoreTypedFields, watchTypedFields, type TypedFieldsWatch } from './lib/typed-fields';
import './index.css';

const root = document.getElementById('root')!;
/**
 * Tells index.html's loader that the app's page is in place: it carries a press on a pre-rendered page's link
 * over the app's drawing until then (scripts/first-paint-html.ts). Nothing without the loader (the dev server).
 */
const pageDrawn = () => (window as { giftmartPageDrawn?: () => void }).giftmartPageDrawn?.();
// Over the loading screen there is no link to carry a press from.
if (!root.dataset.prerendered) pageDrawn();

// A visit to / is the pre-rendered landing page (landing.html, src/web/landing.ts; ADR 004), so everything
// this entry serves needs the router: it comes in the entry itself rather than as one more round trip.
await whenHydrated(REHYDRATE_TIMEOUT_MS);
/**
 * The browser gets its turn between the start's steps: evaluating this entry (React, the app's modules), making
 * the router and then the screens' modules in one task made one long task of the start on a slow phone
 * (issue 14, total blocking time); as three tasks, input and paints can come between. A message, not a timer:
 * a tab opened in the background has its timers held back to once a second.
 */
function nextTask(): Promise<void> {
  return new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
await nextTask();
const router = createAppRouter();
await nextTask();

const { bizClient, userData } = useGiftCardStore.getState();
const screens = preloadScreens(router, bizClient ? 'business' : userData ? 'user' : null);
// The loading screen in index.html painted without the stylesheet; React's first screen waits for it.
await applyDeferredStyles();
// React draws once the address's screens are here (preloadScreens says why), over the loading screen in
// index.html or the pre-rendered page. Not awaited at the top level: the screens' chunks import this entry's
// own chunk, so they can only finish loading once this module has. Over the loading screen, a screen that has
// not come within FIRST_SCREEN_WAIT_MS is left to React.lazy, which shows its spinner and, in the end, its
// time-out's error. A pre-rendered page is kept until its code is here (or failed to come): a spinner in its
// place would throw away what was typed into it.
const FIRST_SCREEN_WAIT_MS = 3000;

/**
 * At the end of the commit that puts the app's first page in place of a pre-rendered one (its layout effects
 * run after the page's own, before the browser paints): what was typed into the pre-rendered page goes into
 * the app's, within the same task, so no keystroke can fall between the two; a link pressed there and not yet
 * released is carried over too (by index.html's loader, pageDrawn).
 */
function CarryTyped({ watch, children }: { watch: TypedFieldsWatch; children: ReactNode }) {
  useLayoutEffect(() => {
    restoreTypedFields(root, watch.stop());
    pageDrawn();
    // The page is the app's now, no longer the one the build drew (what the browser tests wait for).
    delete root.dataset.prerendered;
  }, [watch]);
  return children;
}

function draw() {
  const reactRoot = createRoot(root);
  const app = <RouterProvider router={router} />;
  // As a transition, the first render yields to the browser every few milliseconds instead of blocking it
  // (issue 14: a dashboard's first render was the longest task of its start). A pre-rendered page stays in
  // place until React commits; what is typed into it meanwhile is watched and carried over.
  const watch = root.dataset.prerendered ? watchTypedFields(root) : null;
  startTransition(() =>
    reactRoot.render(<StrictMode>{watch ? <CarryTyped watch={watch}>{app}</CarryTyped> : app}</StrictMode>),
  );
}
void (
  root.dataset.prerendered
    ? screens
    : Promise.race([screens, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))])
).then(draw);
