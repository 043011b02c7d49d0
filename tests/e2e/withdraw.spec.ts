import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { makeNuban } from '../../src/shared/wallet/banks';
import {
  businessInput,
  DEFAULT_PASSWORD,
  logInViaApi,
  logInViaForm,
  reactCommitsDelay,
  registerViaApi,
  userInput,
} from './support';

/** A business that has sold a ₦20,000 card: a user bought it through the sandbox checkout and its webhook. */
async function businessWithSales(baseURL: string) {
  const business = businessInput();
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  expect((await api.post('/api/v1/businesses', { data: business })).status()).toBe(201);
  await api.post('/api/v1/auth/login', {
    data: { email: business.email, password: DEFAULT_PASSWORD, role: 'business' },
  });
  const card = await (
    await api.post('/api/v1/gift-cards', { data: { amount: 2_000_000, colour: '#0f766e' } })
  ).json();
  await api.delete('/api/v1/auth/session');

  const user = userInput();
  expect((await api.post('/api/v1/users', { data: user })).status()).toBe(201);
  await api.post('/api/v1/auth/login', { data: { email: user.email, password: DEFAULT_PASSWORD } });
  const order = await (await api.post('/api/v1/orders', { data: { giftCardId: card.id } })).json();
  await api.post(order.checkoutUrl, {
    form: { cardNumber: '4084084084084081', action: 'pay' },
    maxRedirects: 0,
  });
  await expect
    .poll(async () => (await (await api.get(`/api/v1/orders/${order.id}`)).json()).status, {
      timeout: 15_000,
    })
    .toBe('paid');
  await api.dispose();
  return business;
}

async function setPin(page: Page, pin: string) {
  await page.getByRole('link', { name: /Set transaction pin/ }).click();
  const form = page.getByRole('dialog', { name: 'Create transaction PIN' });
  await form.getByLabel('New PIN').fill(pin);
  await form.getByLabel('Confirm PIN').fill(pin);
  await form.getByRole('button', { name: 'Create PIN' }).click();
  // The message comes after the form's own dialog has closed, so it has the focus (Enter or Space answers
  // it): shown while that modal was still open, it was out of reach, and the focus went back to the page.
  const ok = page.getByRole('dialog').filter({ hasText: 'Transaction PIN created' }).getByRole('button', {
    name: 'OK',
  });
  await expect(ok).toBeFocused();
  await ok.click();
}

test('a business with sales sets a PIN, adds a bank account, withdraws and sees it paid; wrong PIN and too much are refused', async ({
  page,
  baseURL,
}) => {
  const business = await businessWithSales(baseURL!);
  await logInViaForm(page, 'business', business.email);
  await setPin(page, '2580');

  await page.goto('/dashboard/wallet?add-bank=1');
  const add = page.getByRole('dialog', { name: 'Add New bank account' });
  await add.getByLabel('Bank').selectOption({ label: 'Guaranty Trust Bank' });
  await add.getByLabel('Account number').fill(makeNuban('058', '123456789'));
  await add.getByRole('button', { name: 'Verify account' }).click();
  await expect(add.getByRole('status')).toContainText('Is this your account?');
  await add.getByLabel('Transaction PIN').fill('2580');
  await add.getByRole('button', { name: 'Save bank account' }).click();
  await expect(page.getByRole('region', { name: 'Default Bank Account' })).toContainText(
    'Guaranty Trust Bank',
  );

  await page.getByRole('button', { name: 'Show balance' }).click();
  await expect(page.getByText('₦20,000.00', { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Process Withdrawal' });
  await expect(withdraw.getByText('Withdraw funds from wallet')).toBeVisible();

  // Too much, then a wrong PIN: clear messages, nothing moves.
  await withdraw.getByLabel('Amount').fill('25000');
  await withdraw.getByLabel('Transaction PIN').fill('2580');
  await withdraw.getByRole('button', { name: 'Process Payment' }).click();
  await expect(withdraw.getByText(/insufficient balance/)).toBeVisible();
  await withdraw.getByLabel('Amount').fill('5000');
  await withdraw.getByLabel('Transaction PIN').fill('1111');
  await withdraw.getByRole('button', { name: 'Process Payment' }).click();
  await expect(withdraw.getByText(/Wrong PIN\. 4 tries left/)).toBeVisible();

  await withdraw.getByLabel('Transaction PIN').fill('2580');
  await withdraw.getByRole('button', { name: 'Process Payment' }).click();
  const requested = page.getByRole('dialog').filter({ hasText: 'Withdrawal of ₦5,000.00 requested' });
  await expect(requested.getByRole('button', { name: 'OK' })).toBeFocused();
  await requested.getByRole('button', { name: 'OK' }).click();
  await expect(requested).toBeHidden();
  await expect(page.getByText('₦15,000.00', { exact: true }).first()).toBeVisible();

  const history = page.getByRole('region', { name: 'Withdrawal History' });
  const row = history.getByRole('row').nth(1);
  await expect(row).toContainText('₦5,000.00');
  await expect(row).toContainText(business.name);
  await expect(row.getByText('paid', { exact: true })).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: 'test-results/wallet-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('button', { name: 'Withdraw' }).click();
  await page.screenshot({ path: 'test-results/withdraw-dialog-375.png' });
});

test('the message after a dialog has the focus even when the page is slow to close the dialog', async ({
  page,
}) => {
  // A done message follows the dialog its form was in. React closes that dialog at its next commit; when the
  // message came first, the still-open modal put it out of reach: OK had no focus, so Enter did not answer.
  const slowCommits = await reactCommitsDelay(page, 400);
  const business = await registerViaApi(page, 'business');
  await logInViaApi(page, 'business', business.email);
  await page.getByRole('link', { name: /Set transaction pin/ }).click();
  const form = page.getByRole('dialog', { name: 'Create transaction PIN' });
  await form.getByLabel('New PIN').fill('2580');
  await form.getByLabel('Confirm PIN').fill('2580');
  await slowCommits(true);
  await form.getByRole('button', { name: 'Create PIN' }).click();
  const message = page.getByRole('dialog').filter({ hasText: 'Transaction PIN created' });
  await expect(message.getByRole('button', { name: 'OK' })).toBeFocused();
  await slowCommits(false);
  await page.keyboard.press('Enter');
  await expect(message).toBeHidden();
  await expect(form).toBeHidden();
});
