import { expect, test, type Browser, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { businessInput, DEFAULT_PASSWORD, logInViaForm, registerViaApi } from './support';

/** Journeys about spending cards: a business with a design on sale, a user who buys one of its cards. */

export const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}-[0-9A-HJKMNP-TV-Z]$/;

/** A business, signed in through the form in its own context, with one design on sale. */
export async function businessWithDesign(
  browser: Browser,
  design: { amount: number; colour: string; validityMonths?: number | null },
  contextOptions: Parameters<Browser['newContext']>[0] = {},
) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const input = businessInput();
  const request = context.request;
  expect((await request.post('/api/v1/businesses', { data: input })).status()).toBe(201);
  const login = await request.post('/api/v1/auth/login', {
    data: { email: input.email, password: DEFAULT_PASSWORD, role: 'business' },
  });
  const origin = new URL(login.url()).origin;
  const created = await request.post('/api/v1/gift-cards', {
    data: { validityMonths: null, ...design },
    headers: { origin },
  });
  expect(created.status(), await created.text()).toBe(201);
  const card = (await created.json()) as { id: string; uniqueId: string };
  await request.delete('/api/v1/auth/session', { headers: { origin } });
  await logInViaForm(page, 'business', input.email);
  return { context, page, input, card };
}

/** A user, signed in through the form in its own context. */
export async function signedInUser(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const input = await registerViaApi(page, 'user');
  await logInViaForm(page, 'user', input.email);
  return { context, page, input };
}

/** Buys a design through the sandbox checkout (success test card); answers the order's and card's ids. */
export async function buyThroughCheckout(
  page: Page,
  giftCardId: string,
): Promise<{ orderId: string; cardId: string }> {
  await page.goto(`/user-dashboard/card/${giftCardId}`);
  await page.getByRole('button', { name: 'Purchase this card' }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await page.getByLabel('Card number').fill('4084 0840 8408 4081');
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 15_000 });
  const orderId = page.url().split('/').pop()!;
  await page.getByRole('link', { name: 'View your card' }).click();
  await expect(page).toHaveURL(/\/user-dashboard\/mycards\/[0-9a-f-]{36}$/);
  return { orderId, cardId: page.url().split('/').pop()! };
}

/** The card's code, revealed on its page as the holder does (Show code), with its QR. */
export async function revealCodeOnPage(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Show code' }).click();
  const code = page.getByText(CODE_PATTERN);
  await expect(code).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of your gift card code' })).toBeVisible();
  return (await code.textContent())!.trim();
}

/** The page fits its width: nothing pokes out sideways (a phone would scroll it). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, `the page is ${scroll}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

/**
 * The page at 1280 and then 375 px: at each width nothing may poke out sideways, and a screenshot goes to
 * `<name>-<width>.png` in E2E_SCREENSHOTS (or the test's output folder), for a person to look at. The whole
 * page, or with `fullPage: false` only the window (an open dialog, whose backdrop covers only the window).
 * `settleMs` waits after each resize for what follows the width a moment later (a chart). Leaves the page at
 * 1280 px.
 */
export async function screenshotsAtBothWidths(
  page: Page,
  name: string,
  { fullPage = true, settleMs = 0 }: { fullPage?: boolean; settleMs?: number } = {},
): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS ?? test.info().outputPath('shots');
  mkdirSync(dir, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    if (settleMs) await page.waitForTimeout(settleMs);
    await expectNoSidewaysScroll(page);
    // A whole page is drawn from its top: scrolled, the header and sidebar (fixed to the window) would be
    // drawn where the window was, in the middle of the picture.
    if (fullPage) await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
