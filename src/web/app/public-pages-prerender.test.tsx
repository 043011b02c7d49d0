import { describe, expect, it } from 'vitest';
import { PRERENDERED_CONFIG_SCRIPT, PRERENDERED_PAGES, renderPublicPages } from './public-pages-prerender';
import { matchRoutes } from 'react-router';
import type { ScreenHandle } from './routes/page';
import { everyoneRoutes, signedOutRoutes } from './routes/public-routes';

// What the build pre-renders for /faqs, /terms, /support, /select-account and the log-in and sign-up forms
// (scripts/prerender.mjs): readable without JavaScript.
describe('the pre-rendered public pages', () => {
  const pages = Object.fromEntries(renderPublicPages().map((page) => [page.path, page.html]));

  it('hold their headings, text and links as HTML, in the public chrome', () => {
    expect(Object.keys(pages)).toEqual([
      '/faqs',
      '/terms',
      '/support',
      '/select-account',
      '/login',
      '/register',
      '/business/login',
      '/business/register',
      '/balance',
    ]);
    for (const html of Object.values(pages).slice(0, 3)) {
      expect(html).toContain('href="/"');
      expect(html).toContain('All rights reserved.');
      expect(html).toContain('href="/faqs"');
      expect(html).not.toContain('animate-spin');
    }
    for (const [path, texts] of [
      ['/faqs', ['Frequently asked questions', 'About Giftmart', 'Buying and using cards']],
      ['/terms', ['Terms of use and privacy', 'Contents', '1. About these terms']],
      ['/support', ['Customer Support', 'Send us an email']],
      [
        '/select-account',
        ['Login as a Business', 'Login as a User', 'href="/business/login"', 'href="/login"'],
      ],
    ] as const) {
      for (const text of texts) expect(pages[path], `${path}: ${text}`).toContain(text);
    }
  });

  it('hold the log-in, sign-up and balance forms, their fields named, and no submit button the browser could send', () => {
    const fields = (html: string) => [...html.matchAll(/<input[^>]*\bname="([^"]+)"/g)].map((m) => m[1]);
    for (const [path, heading, names, submit] of [
      ['/login', 'Welcome back', ['email', 'password', 'remember'], 'Log in'],
      ['/business/login', 'Business login', ['email', 'password', 'remember'], 'Log in'],
      ['/balance', 'Check a balance', ['code'], 'Check balance'],
      [
        '/register',
        'Create your account',
        ['name', 'username', 'email', 'phoneNumber', 'password', 'confirmPassword', 'terms'],
        'Create account',
      ],
      [
        '/business/register',
        'Register your business',
        ['name', 'email', 'phoneNumber', 'password', 'confirmPassword', 'terms'],
        'Create account',
      ],
    ] as const) {
      const html = pages[path]!;
      expect(html, path).toContain(heading);
      expect(fields(html), path).toEqual(names);
      const buttons = [...html.matchAll(/<button type="submit"[^>]*>[^<]*/g)].map((m) => m[0]);
      expect(buttons, path).toHaveLength(1);
      expect(buttons[0], path).toContain(' disabled=""');
      expect(buttons[0], path).toContain(submit);
      expect(html, path).not.toContain('animate-spin');
    }
  });

  it('show the support address as a link, not "loading", and carry the config the app starts from', () => {
    for (const path of ['/faqs', '/terms', '/support']) {
      expect(pages[path], path).toContain('href="mailto:support@giftmart.ng"');
      expect(pages[path], path).not.toMatch(/loading/i);
    }
    expect(PRERENDERED_CONFIG_SCRIPT).toBe(
      '<script type="application/json" id="public-config">{"currency":"NGN","supportEmail":"support@giftmart.ng"}</script>',
    );
  });

  it('are routes that name their screen, whose code the app waits for before drawing over the HTML', () => {
    for (const { path } of PRERENDERED_PAGES) {
      const matches = matchRoutes([...signedOutRoutes, { children: everyoneRoutes }], path) ?? [];
      const page = matches.at(-1);
      expect(page?.pathname, path).toBe(path);
      expect((page?.route.handle as ScreenHandle | undefined)?.screen.preload, path).toBeTypeOf('function');
    }
  });
});
