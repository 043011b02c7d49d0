import { expect, test, type Page } from '@playwright/test';
import {
  appDrawn,
  expectNoSeriousA11yViolations,
  holdAppCode,
  holdFiles,
  spinnerSeen,
  watchForSpinners,
} from './support';

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

test.describe('landing page', () => {
  test('the top bar becomes fixed after 250 px, and the scroll-to-top button appears after 400 px', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await expect(page.getByText('best and most trusted platform')).toBeVisible();
    const header = page.locator('header').first();
    await expect(header).not.toHaveCSS('position', 'fixed');
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 260));
    await expect(header).toHaveCSS('position', 'fixed');
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 420));
    await page.getByRole('button', { name: 'Scroll to top' }).click();
    await expect.poll(() => scrollY(page)).toBe(0);
    await expect(header).not.toHaveCSS('position', 'fixed');
  });

  test('the bar scrolls to about 900, 1850 and 2950 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [label, top] of [
      ['About', 900],
      ['How it works / Features', 1850],
      ['Get started', 2950],
    ] as const) {
      await nav.getByRole('link', { name: label }).click();
      await expect.poll(() => scrollY(page), { message: label }).toBe(top);
      const sectionTop = await page.evaluate(
        () => document.elementFromPoint(640, 100)?.closest('section')?.getBoundingClientRect().top ?? 999,
      );
      expect(Math.abs(sectionTop), `${label}: a section starts at the anchor`).toBeLessThan(120);
    }
    await nav.getByRole('link', { name: 'Home' }).click();
    await expect.poll(() => scrollY(page)).toBe(0);
  });

  test('each lazy section shows a loading animation, then its content 1 second after entering view', async ({
    page,
  }) => {
    await page.clock.install({ time: new Date('2026-11-21T09:00:00Z') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    // From here the page's clock moves only when the test moves it.
    await page.clock.pauseAt(new Date('2026-11-21T10:00:00Z'));
    const about = page.locator('section#about');
    await about.scrollIntoViewIfNeeded();
    await expect(about.getByRole('status')).toBeVisible();
    await page.clock.runFor(900);
    await expect(about.getByRole('status')).toBeVisible();
    // Past 1 s the content is revealed; React's own timers (e.g. the Suspense reveal) run on the paused
    // clock too, so keep it moving while waiting for the chunk.
    await expect
      .poll(async () => {
        await page.clock.runFor(100);
        return about.getByRole('status').count();
      })
      .toBe(0);
    await expect(about).toHaveAttribute('aria-busy', 'false');
    // The sections further down have not been seen yet, so they are still waiting.
    await expect(page.locator('section#get-started').getByRole('status')).toBeVisible();
  });

  test('Create an account goes to /select-account and Use the Web App to /login', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).first().click();
    await expect(page).toHaveURL(/\/select-account$/);
    await page.goto('/');
    await page.getByRole('link', { name: 'Use the Web App' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('on a phone the links sit behind a menu button', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: /menu/i }).click();
    await expect(page.getByRole('link', { name: 'How it works / Features' }).last()).toBeVisible();
  });

  test('a section whose code fails to download says so, with a reload button', async ({ page }) => {
    await page.route(/about-section-.*\.js$/, (route) => route.abort());
    await page.goto('/');
    await page.locator('section#about').scrollIntoViewIfNeeded();
    const alert = page.locator('section#about').getByRole('alert');
    await expect(alert).toContainText('did not load', { timeout: 5000 });
    await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
  });
});

test.describe('landing page without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the pre-rendered page shows its content, sections included, and its links work', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Buy, keep, spend and send gift cards in one place',
    );
    await expect(page.getByText('best and most trusted platform')).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }),
    ).toBeVisible();
    for (const title of [
      'A marketplace for gift cards, built for Nigeria',
      'Simple for businesses and buyers',
      'Safe from payment to payout',
      'Start with Giftmart today',
    ]) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    // The sections' bodies are there at once (no loading animation waits for a script).
    await expect(page.getByRole('status')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign up as a buyer' })).toBeVisible();
    await expect(page.locator('footer')).toContainText('support@giftmart.ng');
    await page.getByRole('link', { name: 'Use the Web App' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('FAQs, Terms, Support and Select account without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('each is pre-rendered: its heading, text and links are there, and the questions open', async ({
    page,
  }) => {
    for (const [url, heading] of [
      ['/faqs', 'Frequently asked questions'],
      ['/terms', 'Terms of use and privacy'],
      ['/support', 'Customer Support'],
    ] as const) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(
        page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'FAQs' }),
      ).toBeVisible();
      await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
      // The support address is there as a link, not "loading" (the server wrote its own into the page).
      await expect(page.getByText(/loading…/i)).toHaveCount(0);
      await expect(page.locator('a[href="mailto:support@giftmart.ng"]').first()).toBeAttached();
    }
    await page.goto('/select-account');
    await page.getByRole('link', { name: /Login as a User/ }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/faqs');
    const first = page.locator('details').first();
    await first.locator('summary').click();
    await expect(first).toHaveAttribute('open', '');
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Terms' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of use and privacy');
  });
});

test.describe('a pre-rendered public page with JavaScript', () => {
  test('the app draws the same page over it, with no spinner in between, and then runs it', async ({
    page,
  }) => {
    // From the first byte: note any spinner that appears, and mark the pre-rendered heading to tell it from
    // the one React draws.
    await watchForSpinners(page, '.animate-spin, #root > [role="status"]');
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const heading = document.querySelector('#root h1');
        if (heading && !heading.hasAttribute('data-drawn-by') && !document.documentElement.dataset.sawFirst) {
          heading.setAttribute('data-drawn-by', 'build');
          document.documentElement.dataset.sawFirst = 'yes';
        }
      }).observe(document, { childList: true, subtree: true });
    });
    // The page carries the public config: the app, drawing over it, does not ask for it again.
    let configRequests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/config') configRequests += 1;
    });
    await page.goto('/faqs');
    await expect(page.locator('#root h1[data-drawn-by="build"]')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    expect(await spinnerSeen(page)).toBe(false);
    await expect(page.locator('#root a[href="mailto:support@giftmart.ng"]').first()).toBeAttached();
    await expect(page.getByText(/address \(loading…\)/)).toHaveCount(0);
    expect(configRequests).toBe(0);
    // The app runs the page now: the footer's links move within it.
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Terms' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of use and privacy');
  });
});

test.describe('select account and the other public screens', () => {
  test('both choices with their texts, and the current year in the footer', async ({ page }) => {
    await page.goto('/select-account');
    await expect(page.getByText('make giftcards people can shop with for your business')).toBeVisible();
    await expect(
      page.getByText('purchase giftcards from any business and shop at your favourite store'),
    ).toBeVisible();
    await expect(page.locator('footer')).toContainText(String(new Date().getFullYear()));
    await page.getByRole('link', { name: /Login as a Business/ }).click();
    await expect(page).toHaveURL(/\/business\/login$/);
    await page.getByRole('link', { name: 'Create one' }).click();
    await expect(page).toHaveURL(/\/business\/register$/);
    await page.goto('/select-account');
    await page.getByRole('link', { name: /Login as a User/ }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  /** Presses "Login as a User", lets the held files come, releases once the app has drawn, and expects /login. */
  async function pressAcrossTheDraw(page: Page, release: () => void) {
    const box = (await page.getByRole('link', { name: /Login as a User/ }).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    release();
    await appDrawn(page);
    await page.mouse.up();
    await expect(page).toHaveURL(/\/login$/);
  }

  test("a link pressed on the pre-rendered page and released on the app's still goes there", async ({
    page,
  }) => {
    // The app draws its page over the build's copy; a press and its release on two different links make no
    // click (a CI run lost one on this page). The page's code is held back until the link is pressed, which
    // is once the app's own code runs (it asks for the page's): what carries the press over starts there.
    const pageCode = await holdFiles(page, /select-account-page-.*\.js$/);
    await page.goto('/select-account');
    await pageCode.asked;
    await pressAcrossTheDraw(page, pageCode.release);
  });

  test("a link pressed before the app's code runs and released on the app's page still goes there", async ({
    page,
  }) => {
    // The same press, begun earlier: the app's own code is held back until the link is pressed, so only the
    // pre-rendered page and its loader are there. The loader notes the press and the app takes it over.
    const entry = await holdFiles(page, /\/assets\/index-.*\.js$/);
    await page.goto('/select-account');
    await entry.asked;
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(1);
    await pressAcrossTheDraw(page, entry.release);
  });

  test('a screen whose code fails to load shows a message and a reload button, not a blank page', async ({
    page,
  }) => {
    await page.route(/select-account-page-.*\.js$/, (route) => route.abort());
    await page.goto('/login');
    await page.goto('/select-account');
    await expect(page.getByRole('alert')).toContainText('This page did not load');
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  });

  test('FAQs and Terms are real pages', async ({ page }) => {
    await page.goto('/faqs');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.locator('details').count()).toBeGreaterThan(4);
    await page.goto('/terms');
    await expect(page.getByText('Last updated: 21 November 2026')).toBeVisible();
  });

  for (const width of [1280, 375]) {
    test(`every public screen passes axe at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      for (const path of [
        '/',
        '/select-account',
        '/login',
        '/register',
        '/business/login',
        '/business/register',
        '/faqs',
        '/terms',
        '/balance',
        '/no-such-page',
      ]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoSeriousA11yViolations(page);
      }
    });
  }
});

test.describe('the pre-rendered balance form', () => {
  test('is there before its code, and what was typed goes through the app once it takes over', async ({
    page,
  }) => {
    const release = await holdAppCode(page);
    await page.goto('/balance', { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: 'Check a balance' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check balance' })).toBeDisabled();
    await page.locator('#root form').evaluate((form) => form.setAttribute('data-built', ''));
    const code = page.locator('input[name="code"]');
    await code.fill('abcd2345');

    release();
    await expect(page.locator('#root form[data-built]')).toHaveCount(0, { timeout: 15_000 });
    // The app's own field took the typing, and formatted it as a code.
    await expect(code).toHaveValue('ABCD-2345');
    await expect(code).toBeFocused();
    await page.getByRole('button', { name: 'Check balance' }).click();
    await expect(page.getByText(/too short/)).toBeVisible();
  });
});
