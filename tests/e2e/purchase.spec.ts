import { expect, test, type Page } from '@playwright/test';
import {
  businessInput,
  DEFAULT_PASSWORD,
  expectNoSeriousA11yViolations,
  logInViaForm,
  registerViaApi,
} from './support';

/** A business with one card on sale, made through the API in its own browser context. */
async function businessWithCard(page: Page, amount: number, colour: string) {
  const input = businessInput();
  const request = page.context().request;
  expect((await request.post('/api/v1/businesses', { data: input })).status()).toBe(201);
  const login = await request.post('/api/v1/auth/login', {
    data: { email: input.email, password: DEFAULT_PASSWORD, role: 'business' },
  });
  const origin = new URL(login.url()).origin;
  const card = await (
    await request.post('/api/v1/gift-cards', { data: { amount, colour }, headers: { origin } })
  ).json();
  await request.delete('/api/v1/auth/session', { headers: { origin } });
  return { input, card: card as { id: string; uniqueId: string } };
}

async function payOnCheckout(page: Page, cardNumber: string) {
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Sandbox checkout: test mode')).toBeVisible();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
}

test.describe('buying a gift card', () => {
  test('a user browses, buys with the success test card, sees the card, reveals the code and QR; the business sees the sale', async ({
    browser,
  }) => {
    // A long journey (two people, a checkout, both dashboards): a loaded CI machine needs more than 60 s.
    test.slow();
    const businessContext = await browser.newContext();
    const businessPage = await businessContext.newPage();
    const { input: business, card } = await businessWithCard(businessPage, 750_000, '#0f766e');

    const context = await browser.newContext();
    const page = await context.newPage();
    const user = await registerViaApi(page, 'user');
    await logInViaForm(page, 'user', user.email);

    await page.getByLabel('Search by business name').fill(business.name);
    const tile = page.getByRole('link', { name: new RegExp(`${business.name} gift card, ₦7,500.00`) });
    await expect(tile).toBeVisible();
    await tile.click();
    await expect(page).toHaveURL(new RegExp(`/user-dashboard/card/${card.id}(\\?.*)?$`));
    await expect(page.getByText(`This gift card is made for ${business.name} products only`)).toBeVisible();
    await expect(page.getByText('Cash Value')).toBeVisible();
    await expect(page.getByText(card.uniqueId)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Purchase this card' }).click();

    await payOnCheckout(page, '4084 0840 8408 4081');
    await expect(page).toHaveURL(/\/user-dashboard\/orders\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('link', { name: 'View your card' }).click();

    await expect(page).toHaveURL(/\/user-dashboard\/mycards\/[0-9a-f-]{36}$/);
    await expect(page.getByText('₦7,500.00').first()).toBeVisible();
    await page.getByRole('button', { name: 'Show code' }).click();
    const code = page.getByText(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}-[0-9A-HJKMNP-TV-Z]$/);
    await expect(code).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code of your gift card code' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page
      .getByRole('navigation', { name: 'User dashboard' })
      .getByRole('link', { name: 'My Gift Cards' })
      .click();
    await expect(page.getByRole('link', { name: new RegExp(business.name) })).toHaveCount(1);

    // The business: the balance (eye toggle) and the sold count went up.
    await logInViaForm(businessPage, 'business', business.email);
    await businessPage.getByRole('button', { name: 'Show balance' }).click();
    // Home also shows the sale in its figures and chart: the balance is the one in "Available balance".
    await expect(
      businessPage.getByRole('region', { name: 'Available balance' }).getByText('₦7,500.00', { exact: true }),
    ).toBeVisible();
    await expect(businessPage.getByRole('link', { name: /Sold today ₦7,500\.00/ })).toBeVisible();
    await businessPage.goto('/dashboard/giftcard?tab=list');
    await expect(
      businessPage.getByRole('list', { name: 'Your gift cards' }).getByText('1', { exact: true }),
    ).toBeVisible();
    await context.close();
    await businessContext.close();
  });

  test('a declined test card shows a clear message and issues nothing', async ({ browser }) => {
    const businessPage = await (await browser.newContext()).newPage();
    const { card } = await businessWithCard(businessPage, 200_000, '#111827');
    const page = await (await browser.newContext()).newPage();
    const user = await registerViaApi(page, 'user');
    await logInViaForm(page, 'user', user.email);
    await page.goto(`/user-dashboard/card/${card.id}`);
    await page.getByRole('button', { name: 'Purchase this card' }).click();
    await payOnCheckout(page, '4000 0000 0000 0002');
    await expect(
      page.getByText('The card was declined. No money was taken and no gift card was issued.'),
    ).toBeVisible({ timeout: 15_000 });
    const mine = await (await page.request.get('/api/v1/purchased-cards')).json();
    expect(mine.items).toHaveLength(0);
    await page.goto('/user-dashboard/mycards');
    await expect(page.getByText("You'll see your gift cards soon.")).toBeVisible();
  });

  test('the catalogue and My Gift Cards look right at phone width', async ({ page }) => {
    const user = await registerViaApi(page, 'user');
    await page.setViewportSize({ width: 375, height: 812 });
    await logInViaForm(page, 'user', user.email);
    await expect(page.getByRole('heading', { level: 1, name: 'All Gift Cards' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: 'test-results/catalogue-375.png', fullPage: true });
  });

  test('an unknown card, order or purchased card says it was not found, with a way back', async ({
    page,
  }) => {
    const user = await registerViaApi(page, 'user');
    await logInViaForm(page, 'user', user.email);
    const nobody = '00000000-0000-4000-8000-000000000000';
    await page.goto(`/user-dashboard/card/${nobody}`);
    await expect(page.getByText('We couldn’t find this gift card')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to All Gift Cards' })).toBeVisible();
    await page.goto(`/user-dashboard/orders/${nobody}`);
    await expect(page.getByText('We couldn’t find this order')).toBeVisible();
    await page.goto(`/user-dashboard/mycards/${nobody}`);
    await expect(page.getByText('We couldn’t find this card in your account')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to My Gift Cards' })).toBeVisible();
  });

  test("the old app's literal card link /user-dashboard/card/id says where it came from and leads to the catalogue", async ({
    page,
  }) => {
    const user = await registerViaApi(page, 'user');
    await logInViaForm(page, 'user', user.email);
    await page.goto('/user-dashboard/card/id');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Gift card link from the old app' }),
    ).toBeVisible();
    await expect(page.getByText('This link came from the old Giftmart app')).toBeVisible();
    await expect(page.getByText('We couldn’t find this gift card')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Browse gift cards' }).click();
    await expect(page).toHaveURL(/\/user-dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All Gift Cards' })).toBeVisible();
  });
});
