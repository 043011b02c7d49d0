import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type APIResponse,
} from '@playwright/test';
import { readFileSync } from 'node:fs';
import { formatMoney } from '../../src/shared/money';
import { makeNuban } from '../../src/shared/wallet/banks';
import { screenshotsAtBothWidths } from './cards-support';
import {
  businessInput,
  DEFAULT_PASSWORD,
  expectNoSeriousA11yViolations,
  logInViaForm,
  userInput,
} from './support';

/**
 * Issue 13, the business's money screens: Sales (filters, search, CSV), Redemptions, the wallet statement,
 * Home's figures and chart, and every table at 375 px as a card per row.
 */

const PIN = '2580';
/** The chart and the tables follow the width on the next frame: each screenshot waits for them. */
const AFTER_RESIZE = { settleMs: 150 };
const ngn = (amount: number) => formatMoney({ amount, currency: 'NGN' });

async function apiContext(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
}

async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const res = await response;
  expect(res.ok(), `${res.url()}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

interface Bought {
  cardId: string;
  code: string;
  last4: string;
}

/** A user buys a design through the sandbox checkout and its webhook; answers the card and its code. */
async function buy(user: APIRequestContext, giftCardId: string): Promise<Bought> {
  const order = await ok<{ id: string; checkoutUrl: string }>(
    user.post('/api/v1/orders', {
      data: { giftCardId },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }),
  );
  await user.post(order.checkoutUrl, {
    form: { cardNumber: '4084084084084081', action: 'pay' },
    maxRedirects: 0,
  });
  let cardId = '';
  await expect
    .poll(
      async () => {
        const current = await ok<{ status: string; purchasedCardId: string | null }>(
          user.get(`/api/v1/orders/${order.id}`),
        );
        cardId = current.purchasedCardId ?? '';
        return current.status;
      },
      { timeout: 15_000 },
    )
    .toBe('paid');
  const { code } = await ok<{ code: string }>(user.post(`/api/v1/purchased-cards/${cardId}/code`));
  // The last four are the body's last group, before the check character: XXXX-XXXX-XXXX-7Q4K-C.
  const last4 = code.replace(/-/g, '').slice(12, 16);
  return { cardId, code, last4 };
}

/**
 * A business with two designs (₦5,000 and ₦2,000) and three cards sold: one partly spent (plus a use that was
 * reversed), one untouched, one used up; a PIN, a bank account and a ₦1,000 withdrawal.
 */
async function businessWithMoney(baseURL: string) {
  const input = businessInput();
  const biz = await apiContext(baseURL);
  expect((await biz.post('/api/v1/businesses', { data: input })).status()).toBe(201);
  await ok(
    biz.post('/api/v1/auth/login', {
      data: { email: input.email, password: DEFAULT_PASSWORD, role: 'business' },
    }),
  );
  const five = await ok<{ id: string; uniqueId: string }>(
    biz.post('/api/v1/gift-cards', { data: { amount: 500_000, colour: '#0f766e', validityMonths: 12 } }),
  );
  const two = await ok<{ id: string; uniqueId: string }>(
    biz.post('/api/v1/gift-cards', { data: { amount: 200_000, colour: '#b45309', validityMonths: null } }),
  );

  const user = await apiContext(baseURL);
  const buyer = userInput();
  expect((await user.post('/api/v1/users', { data: buyer })).status()).toBe(201);
  await ok(user.post('/api/v1/auth/login', { data: { email: buyer.email, password: DEFAULT_PASSWORD } }));
  const partly = await buy(user, five.id);
  const untouched = await buy(user, five.id);
  const usedUp = await buy(user, two.id);
  await user.dispose();

  const redeem = (data: object) =>
    ok<{ id: string }>(
      biz.post('/api/v1/redemptions', { data, headers: { 'idempotency-key': crypto.randomUUID() } }),
    );
  await redeem({ code: partly.code, amount: 150_000, reference: 'T-100' });
  const mistake = await redeem({ code: partly.code, amount: 50_000, reference: 'T-101' });
  await ok(
    biz.post(`/api/v1/redemptions/${mistake.id}/reversal`, {
      headers: { 'idempotency-key': crypto.randomUUID() },
    }),
  );
  await redeem({ code: usedUp.code, all: true, reference: 'T-102' });

  await ok(biz.post('/api/v1/wallet/pin', { data: { pin: PIN, confirmPin: PIN } }));
  const accountNumber = makeNuban('058', '123456789');
  const resolved = await ok<{ accountName: string }>(
    biz.post('/api/v1/bank-accounts/resolve', { data: { bankCode: '058', accountNumber } }),
  );
  await ok(
    biz.post('/api/v1/bank-accounts', {
      data: { bankCode: '058', accountNumber, accountName: resolved.accountName, pin: PIN },
    }),
  );
  await ok(
    biz.post('/api/v1/withdrawals', {
      data: { amount: 100_000, pin: PIN },
      headers: { 'idempotency-key': crypto.randomUUID() },
    }),
  );
  await biz.dispose();
  return { input, five, two, partly, untouched, usedUp };
}

test('a business sees its sales, filters and searches them, exports them, and sees its redemptions, statement and home figures', async ({
  page,
  baseURL,
}) => {
  test.slow();
  const money = await businessWithMoney(baseURL!);
  const { partly, untouched, usedUp, two } = money;
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInViaForm(page, 'business', money.input.email);

  // Sales: the three cards, newest first, each a link to its sold card.
  await page
    .getByRole('navigation', { name: 'Business dashboard' })
    .getByRole('link', { name: 'Sales' })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/sales$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sales' })).toBeVisible();
  const sales = page.getByRole('table', { name: 'Your sales, newest first' });
  const saleLink = (last4: string) => page.getByRole('link', { name: new RegExp(`^Card ending ${last4},`) });
  await expect(sales.getByRole('row')).toHaveCount(4); // the header and three sales
  for (const card of [partly, untouched, usedUp]) await expect(saleLink(card.last4)).toHaveCount(1);
  // Every column fits at 1280 px: the table does not scroll sideways inside its box.
  expect(await sales.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
  await expect(saleLink(partly.last4)).toHaveAccessibleName(
    new RegExp(`for ${ngn(500_000)}, balance ${ngn(350_000)}, Active$`),
  );
  await expectNoSeriousA11yViolations(page);

  // Status: only the used-up card.
  await page.getByLabel('Status').selectOption({ label: 'Used up' });
  await expect(page).toHaveURL(/status=redeemed/);
  await expect(sales.getByRole('row')).toHaveCount(2);
  await expect(saleLink(usedUp.last4)).toBeVisible();
  // Design: the ₦5,000 design has no used-up card.
  await page.getByLabel('Design').selectOption({ label: `${ngn(500_000)} · ${money.five.uniqueId}` });
  await expect(page.getByText('No sales match these filters')).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'All statuses' });
  await expect(sales.getByRole('row')).toHaveCount(3);
  await expect(saleLink(usedUp.last4)).toHaveCount(0);
  await page.getByLabel('Design').selectOption({ label: `${ngn(200_000)} · ${two.uniqueId}` });
  await expect(sales.getByRole('row')).toHaveCount(2);
  await expect(saleLink(usedUp.last4)).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sales$/);

  // Search by the last four, typed in lower case.
  await page.getByLabel('Last four or reference').fill(untouched.last4.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`q=${untouched.last4.toLowerCase()}`));
  await expect(sales.getByRole('row')).toHaveCount(2);
  await expect(saleLink(untouched.last4)).toBeVisible();
  await screenshotsAtBothWidths(page, 'sales-search', AFTER_RESIZE);
  await page.getByLabel('Last four or reference').fill('');
  await expect(page).toHaveURL(/\/dashboard\/sales$/);
  await expect(sales.getByRole('row')).toHaveCount(4);

  // A day range that holds nothing, then back to today.
  await page.getByLabel('From').fill('2020-01-01');
  await page.getByLabel('To').fill('2020-01-31');
  await expect(page.getByText('No sales match these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(sales.getByRole('row')).toHaveCount(4);

  // Export: the download is the CSV of the three sales, amounts in naira with two decimals.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Export CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toContain('Code last 4');
  expect(lines).toHaveLength(4);
  for (const card of [partly, untouched, usedUp]) expect(csv).toContain(card.last4);
  expect(csv).toContain('5000.00');
  expect(csv).toContain('3500.00');
  await screenshotsAtBothWidths(page, 'sales', AFTER_RESIZE);

  // Each row opens its sold card.
  await saleLink(partly.last4).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/sold-cards/${partly.cardId}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Card ending ${partly.last4}` })).toBeVisible();

  // Redemptions: three uses, the reversed one marked; the balance after each.
  await page.goto('/dashboard/sales');
  await page
    .getByRole('navigation', { name: 'Sales and redemptions' })
    .getByRole('link', { name: 'Redemptions' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Redemptions' })).toBeVisible();
  const uses = page.getByRole('table', { name: 'Your redemptions, newest first' });
  await expect(uses.getByRole('row')).toHaveCount(4);
  const reversed = uses.getByRole('row').filter({ hasText: 'T-101' });
  await expect(reversed).toContainText('Reversed');
  await expect(reversed).toContainText(ngn(500_000 - 150_000 - 50_000));
  const first = uses.getByRole('row').filter({ hasText: 'T-100' });
  await expect(first).toContainText(ngn(150_000));
  await expect(first).toContainText(ngn(350_000));
  await expect(first).toContainText('Redeemed');
  await expectNoSeriousA11yViolations(page);
  const [usesCsv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  const usesText = readFileSync((await usesCsv.path())!, 'utf8');
  expect(usesText.trim().split(/\r?\n/)).toHaveLength(4);
  expect(usesText).toContain('T-102');
  await screenshotsAtBothWidths(page, 'redemptions', AFTER_RESIZE);

  // The statement: the newest line's balance is the wallet's balance (three sales less the withdrawal).
  await page.goto('/dashboard/wallet');
  await page
    .getByRole('navigation', { name: 'Wallet views' })
    .getByRole('link', { name: 'Statement' })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/wallet\/statement$/);
  const wallet = (await (await page.request.get('/api/v1/wallet')).json()) as { balance: { amount: number } };
  expect(wallet.balance.amount).toBe(1_200_000 - 100_000);
  await expect(page.getByTestId('statement-balance')).toHaveText(ngn(wallet.balance.amount));
  const statement = page.getByRole('table', { name: 'Wallet statement, newest first' });
  const newest = statement.getByRole('row').nth(1);
  await expect(newest.getByRole('cell').last()).toHaveText(ngn(wallet.balance.amount));
  await expect(statement.getByRole('row').filter({ hasText: 'Withdrawal' }).first()).toContainText(
    `−${ngn(100_000)}`,
  );
  await expect(statement.getByRole('row').filter({ hasText: 'Sale' })).toHaveCount(3);
  await expectNoSeriousA11yViolations(page);
  const [statementCsv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(readFileSync((await statementCsv.path())!, 'utf8')).toContain('11000.00');
  await screenshotsAtBothWidths(page, 'statement', AFTER_RESIZE);

  // The withdrawal history (on the wallet's overview).
  await page
    .getByRole('navigation', { name: 'Wallet views' })
    .getByRole('link', { name: 'Overview' })
    .click();
  const history = page.getByRole('region', { name: 'Withdrawal History' });
  await expect(history.getByRole('row').nth(1)).toContainText(ngn(100_000));
  await screenshotsAtBothWidths(page, 'withdrawal-history', AFTER_RESIZE);
  // On a phone each withdrawal is a card with its amount and status first, inside the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  const card = history.getByRole('listitem').first();
  await expect(card).toContainText(ngn(100_000));
  const box = await card.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Home: the figures and the chart, 30 then 90 days.
  await page
    .getByRole('navigation', { name: 'Business dashboard' })
    .getByRole('link', { name: 'Home' })
    .click();
  await expect(page.getByRole('link', { name: `Sold today ${ngn(1_200_000)}` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('link', { name: `Redeemed today ${ngn(150_000 + 200_000)}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Outstanding on cards' })).toContainText(
    ngn(350_000 + 500_000),
  );
  const chart = page.getByRole('region', { name: 'Sold and redeemed per day' });
  await expect(chart.getByTestId('sales-chart').locator('canvas')).toBeVisible();
  await expect(chart).toContainText(`Last 30 days: ${ngn(1_200_000)} sold and ${ngn(350_000)} redeemed.`);
  await chart.getByRole('button', { name: '90 days' }).click();
  await expect(chart.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart).toContainText('Last 90 days:');
  await expect(chart.getByTestId('sales-chart').locator('canvas')).toBeVisible();
  await chart.getByText('Show the figures day by day').click();
  await expect(
    chart.getByRole('table', { name: 'Sold and redeemed per day, newest first' }).getByRole('row'),
  ).toHaveCount(91);
  // Folded again, so the screenshots show the page as it opens.
  await chart.getByText('Show the figures day by day').click();
  // The seed's set-up steps and quick action are still there; the PIN is set, the bank is not the default yet.
  await expect(page.getByText('Set transaction pin')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sell Gift Card' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top Gift Cards' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'home', AFTER_RESIZE);
});

test('a new business sees its empty tables and figures in words, and every money screen fits a phone', async ({
  page,
}) => {
  test.slow();
  const input = businessInput();
  expect((await page.request.post('/api/v1/businesses', { data: input })).status()).toBe(201);
  await logInViaForm(page, 'business', input.email);
  // The figures are sums over the money rows; a loaded machine can take a while to answer the first time.
  await expect(page.getByRole('link', { name: 'Sold today None yet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Nothing sold or redeemed in the last 30 days yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Outstanding on cards' })).toContainText(
    'Nothing outstanding',
  );
  // The seed's hidden balance stays the only ₦ figure on a new business's Home until the eye shows it.
  await expect(page.getByText('₦0.00')).toHaveCount(0);
  await page.goto('/dashboard/sales');
  await expect(page.getByText('No sales yet')).toBeVisible();
  await page.goto('/dashboard/sales/redemptions');
  await expect(page.getByText('No redemptions yet')).toBeVisible();
  await page.goto('/dashboard/wallet/statement');
  await expect(page.getByText('No money has moved yet')).toBeVisible();
  await expect(page.getByTestId('statement-balance')).toHaveText(ngn(0));
  // The wrong way round: said on the page, nothing asked of the server.
  await page.getByLabel('From').fill('2026-02-10');
  await page.getByLabel('To').fill('2026-02-01');
  await expect(page.getByText('The “From” date must be on or before the “To” date.')).toBeVisible();
  await screenshotsAtBothWidths(page, 'statement-empty', AFTER_RESIZE);
});
