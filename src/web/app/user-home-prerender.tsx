import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import UserHomePage from '../features/catalogue/user-home-page';
import { PERSIST_KEY, PERSIST_VERSION } from '../lib/constants';
import { useGiftCardStore } from '../lib/store';
import type { Account } from '../../shared/accounts/schemas';
import UserLayout from './layouts/user-layout';

/** The address whose first screen the build draws for a signed-in user: the catalogue (issue 14). */
export const USER_HOME_PATH = '/user-dashboard';

/** The `<template>` that holds it in the page, until the script below finds the visitor is a user. */
export const USER_HOME_TEMPLATE_ID = 'user-home';

/**
 * The account the page is drawn for: characters from Unicode's private use area where the name and the
 * username go, so that each place the account shows in the HTML can be found and left as a slot. The name's
 * first character is on its own the avatar's initial.
 */
const SLOTS = { name: '\uE000\uE001', initial: '\uE000', username: '\uE002' } as const;
const DRAWN_FOR: Account = {
  id: '00000000-0000-4000-8000-000000000000',
  role: 'user',
  name: SLOTS.name,
  email: '',
  username: SLOTS.username,
  phoneNumber: '',
  logoUrl: null,
  createdAt: new Date(0).toISOString(),
};

/**
 * The signed-in catalogue's first screen, as the app first draws it for a user: the dashboard's frame, the
 * welcome and the search, and the tiles' skeletons (the cards come from the API). Where the account shows
 * (the welcome, the header's name, username and initial) the HTML holds an empty
 * `<span data-account="name|initial|username">`, which USER_HOME_SCRIPT fills from the profile the app keeps in
 * the browser. Run by scripts/prerender.mjs at build time.
 */
export function renderUserHome(): string {
  // React's server rendering reads a zustand store's initial state (useSyncExternalStore's server snapshot),
  // one object the store keeps: it holds the account while the page is drawn, and nothing after.
  const initial = useGiftCardStore.getInitialState();
  const before = initial.userData;
  initial.userData = DRAWN_FOR;
  let html: string;
  try {
    html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouter location={USER_HOME_PATH}>
          <Routes>
            <Route path={USER_HOME_PATH} element={<UserLayout />}>
              <Route index element={<UserHomePage />} />
            </Route>
          </Routes>
        </StaticRouter>
      </QueryClientProvider>,
    );
  } finally {
    initial.userData = before;
  }
  if (/<[^>]*[\uE000-\uE002][^>]*>/.test(html)) {
    throw new Error(
      'The account shows inside an attribute of the pre-rendered catalogue: no slot can fill it',
    );
  }
  return html
    .replaceAll(SLOTS.name, '<span data-account="name"></span>')
    .replaceAll(SLOTS.initial, '<span data-account="initial"></span>')
    .replaceAll(SLOTS.username, '<span data-account="username"></span>');
}

/**
 * Runs as the page is read, before its first paint (inline, so no round trip; the server's CSP allows it by
 * its hash, src/server/plugins/web.ts). For a visitor the app would show the catalogue, one whose kept
 * profile (`persist:giftmart`, lib/store.ts, in the version the store reads) is a user's, it puts the
 * template's screen in place of the loading screen, with the account's name, initial
 * (components/ui/avatar.tsx `initialOf`) and username written as text; the app then draws over it (main.tsx:
 * `data-prerendered`). Anyone else, signed out or a business, keeps the loading screen and never sees a
 * user's dashboard. A profile picture is the app's to draw: the initial stands in until then.
 */
export const USER_HOME_SCRIPT = `(function () {
      var user = null;
      try {
        var kept = JSON.parse(localStorage.getItem(${JSON.stringify(PERSIST_KEY)}) || 'null');
        // A profile of another version is one the store does not restore (it has no migration).
        user = kept && kept.version === ${PERSIST_VERSION} && kept.state && kept.state.userData;
      } catch (error) {}
      if (!user || typeof user.name !== 'string' || !user.name) return;
      var root = document.getElementById('root');
      var page = document.getElementById(${JSON.stringify(USER_HOME_TEMPLATE_ID)}).content.cloneNode(true);
      var text = {
        name: user.name,
        initial: (Array.from(user.name.trim())[0] || '?').toLocaleUpperCase(),
        username: typeof user.username === 'string' ? user.username : ''
      };
      page.querySelectorAll('[data-account]').forEach(function (slot) {
        var value = text[slot.getAttribute('data-account')];
        if (value) slot.replaceWith(value);
        else if (slot.getAttribute('data-account') === 'username') slot.parentNode.remove();
        else slot.remove();
      });
      root.replaceChildren(page);
      root.setAttribute('data-prerendered', ${JSON.stringify(USER_HOME_PATH)});
    })();`;
