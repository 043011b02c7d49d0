import { describe, expect, it } from 'vitest';
import { PERSIST_KEY, PERSIST_VERSION } from '../lib/constants';
import { useGiftCardStore } from '../lib/store';
import {
  renderUserHome,
  USER_HOME_PATH,
  USER_HOME_SCRIPT,
  USER_HOME_TEMPLATE_ID,
} from './user-home-prerender';

// What the build pre-renders for /user-dashboard (scripts/prerender.mjs); the browser tests in
// tests/e2e/dashboards.spec.ts open it as a user, a business and a signed-out visitor.
describe('the pre-rendered signed-in catalogue', () => {
  const html = renderUserHome();

  it('holds the dashboard, the welcome, the search and the tiles on their way', () => {
    expect(html).toContain('aria-label="User dashboard"');
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*href="\/user-dashboard"/);
    expect(html).toContain('>All Gift Cards</h1>');
    expect(html).toContain(
      'Welcome, <span data-account="name"></span>. Browse gift cards from businesses on Giftmart',
    );
    // The search's field is named, so that what is typed into it before the app comes is carried over.
    expect(html).toMatch(/<input(?=[^>]*type="search")(?=[^>]*name="q")/);
    expect(html).toContain('Loading gift cards…');
    expect(html).not.toContain('animate-spin');
  });

  it('leaves a slot wherever the account shows, and nothing of the account it was drawn for', () => {
    const slots = [...html.matchAll(/<span data-account="(\w+)"><\/span>/g)].map((match) => match[1]);
    expect(slots.sort()).toEqual(['initial', 'name', 'name', 'username']);
    expect(html).toContain('>@<span data-account="username"></span></p>');
    expect(html).not.toMatch(/[\uE000-\uF8FF]/);
    expect(html).not.toContain('00000000-0000-4000-8000-000000000000');
    // The store the app starts from holds no one.
    expect(useGiftCardStore.getInitialState().userData).toBeNull();
    expect(useGiftCardStore.getState().userData).toBeNull();
    expect(renderUserHome()).toBe(html);
  });

  it('has a script that reads the kept profile and puts the screen from its template in place', () => {
    expect(USER_HOME_SCRIPT).toContain(`localStorage.getItem(${JSON.stringify(PERSIST_KEY)})`);
    expect(USER_HOME_SCRIPT).toContain(`kept.version === ${PERSIST_VERSION} &&`);
    expect(USER_HOME_SCRIPT).toContain(`getElementById(${JSON.stringify(USER_HOME_TEMPLATE_ID)})`);
    expect(USER_HOME_SCRIPT).toContain(`'data-prerendered', ${JSON.stringify(USER_HOME_PATH)}`);
    // Text, never markup, from the profile.
    expect(USER_HOME_SCRIPT).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write/);
    // Valid script (a syntax error would leave every user on the loading screen).
    expect(() => new Function(USER_HOME_SCRIPT)).not.toThrow();
  });
});
