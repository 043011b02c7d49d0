import { expect, test, type Page } from '@playwright/test';
import {
  businessWithDesign,
  buyThroughCheckout,
  screenshotsAtBothWidths,
  signedInUser,
} from './cards-support';
import { expectNoSeriousA11yViolations } from './support';

/**
 * A buyer's orders and receipts, and My Gift Cards' filters (issue 13): a paid and a pending order, the
 * pending one resumed at its checkout, a declined one that says why, a receipt that prints without the
 * dashboard around it, and cards narrowed and sorted from the address.
 */

async function payOnCheckout(page: Page, cardNumber: string) {
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVV').fill('408');
  await page.getByRole('button', { name: /^Pay ₦/ }).click();
}

test('a buyer resumes a pending order, reads why one failed, prints a receipt and filters My Gift Cards', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const shop = await businessWithDesign(browser, { amount: 500_000, colour: '#0f766e' });
  const origin = new URL(shop.page.url()).origin;
  const small = await shop.context.request.post('/api/v1/gift-cards', {
    data: { amount: 200_000, colour: '#7c2d12', validityMonths: null },
    headers: { origin },
  });
  expect(small.status(), await small.text()).toBe(201);
  const smallCard = (await small.json()) as { id: string };

  const { context, page, input: user } = await signedInUser(browser);
  await page.setViewportSize({ width: 1280, height: 900 });

  // A paid ₦5,000 card, and a ₦2,000 card the shop then spends to zero (used up).
  const paid = await buyThroughCheckout(page, shop.card.id);
  const spent = await buyThroughCheckout(page, smallCard.id);
  const code = (await (
    await page.request.post(`/api/v1/purchased-cards/${spent.cardId}/code`, { headers: { origin } })
  ).json()) as { code: string };
  const redeemed = await shop.context.request.post('/api/v1/redemptions', {
    data: { code: code.code, all: true },
    headers: { origin },
  });
  expect(redeemed.status(), await redeemed.text()).toBe(201);

  // A declined payment, and one left at the checkout (pending).
  await page.goto(`/user-dashboard/card/${smallCard.id}`);
  await page.getByRole('button', { name: 'Purchase this card' }).click();
  await payOnCheckout(page, '4000 0000 0000 0002');
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible({ timeout: 15_000 });
  await page.goto(`/user-dashboard/card/${shop.card.id}`);
  await page.getByRole('button', { name: 'Purchase this card' }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  const checkoutUrl = page.url();
  await page.goto('/user-dashboard');

  // Orders, from the sidebar.
  await page
    .getByRole('navigation', { name: 'User dashboard' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await expect(page).toHaveURL(/\/user-dashboard\/orders$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Your orders' });
  await expect(table.getByRole('row')).toHaveCount(5); // the header and four orders
  await expect(table.getByText('Pending', { exact: true })).toHaveCount(1);
  await expect(table.getByText('Failed', { exact: true })).toHaveCount(1);
  await expect(table.getByText('Paid', { exact: true })).toHaveCount(2);
  await expect(
    table.getByText('The card was declined. No money was taken and no gift card was issued.'),
  ).toBeVisible();
  const tryAgain = table.getByRole('link', { name: /^Try again: buy the .* ₦2,000\.00 gift card$/ });
  await expect(tryAgain).toHaveAttribute('href', `/user-dashboard/card/${smallCard.id}`);
  await expect(table.getByRole('link', { name: /^Receipt:/ })).toHaveCount(2);
  await expect(table.getByRole('link', { name: /^View card:/ })).toHaveCount(2);
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'orders');

  // On a phone each order is a card, amount and status first.
  await page.setViewportSize({ width: 375, height: 812 });
  const phoneList = page.getByRole('list', { name: 'Your orders' });
  await expect(phoneList.getByRole('listitem')).toHaveCount(4);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The filter is in the address.
  await page.getByRole('group', { name: 'Show orders' }).getByRole('button', { name: 'Pending' }).click();
  await expect(page).toHaveURL(/\?status=pending$/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Pending', pressed: true })).toBeVisible();

  // Resume the pending one at its own checkout, and pay.
  const resume = table.getByRole('link', { name: /^Continue to payment/ });
  await expect(resume).toHaveAttribute('href', new URL(checkoutUrl).pathname);
  await resume.click();
  await payOnCheckout(page, '4084 0840 8408 4081');
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 15_000 });
  await page.goto('/user-dashboard/orders');
  await expect(table.getByText('Pending', { exact: true })).toHaveCount(0);
  await expect(table.getByText('Paid', { exact: true })).toHaveCount(3);

  // The first order's receipt.
  await page.goto('/user-dashboard/orders?status=paid');
  await table
    .getByRole('row')
    .last()
    .getByRole('link', { name: /^Receipt:/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/user-dashboard/orders/${paid.orderId}/receipt$`));
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt.getByText(paid.orderId)).toBeVisible();
  await expect(receipt.getByText(/^GM-[0-9A-F]{20}$/)).toBeVisible();
  await expect(receipt.getByText(shop.input.name)).toBeVisible();
  await expect(receipt.getByText(user.email)).toBeVisible();
  await expect(receipt.getByText('₦5,000.00').first()).toBeVisible();
  await expect(receipt.getByText(shop.card.uniqueId)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'receipt');

  // Printed: the receipt alone, without the sidebar, the top bar, navigation or buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(receipt).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'User dashboard' })).toBeHidden();
  await expect(page.locator('aside')).toBeHidden();
  await expect(page.locator('header')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('link', { name: '← Back to orders' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'View card' })).toBeHidden();
  await screenshotsAtBothWidths(page, 'receipt-print');
  await page.emulateMedia({ media: 'screen' });
  // Leaving the receipt gives printing the dashboard back.
  await page.getByRole('link', { name: '← Back to orders' }).click();
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // My Gift Cards: filter chips and the sort, kept in the address.
  await page
    .getByRole('navigation', { name: 'User dashboard' })
    .getByRole('link', { name: 'My Gift Cards' })
    .click();
  const cards = page.getByRole('list', { name: 'Your gift cards' });
  await expect(cards.getByRole('listitem')).toHaveCount(3);
  const chips = page.getByRole('group', { name: 'Show cards' });
  await chips.getByRole('button', { name: 'Used up' }).click();
  await expect(page).toHaveURL(/\?status=used$/);
  await expect(cards.getByRole('listitem')).toHaveCount(1);
  await expect(cards.getByRole('link', { name: /₦0\.00 of ₦2,000\.00, Used up/ })).toBeVisible();
  await chips.getByRole('button', { name: 'Active' }).click();
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Sort by').selectOption('balance');
  await expect(page).toHaveURL(/\?status=active&sort=balance$/);
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  await chips.getByRole('button', { name: 'Expired' }).click();
  await expect(page.getByText('No expired cards')).toBeVisible();
  await page.goto('/user-dashboard/mycards?sort=balance');
  await expect(page.getByLabel('Sort by')).toHaveValue('balance');
  const balances = await cards
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? ''));
  expect(balances.map((label) => /balance (₦[\d,.]+)/.exec(label)?.[1])).toEqual([
    '₦5,000.00',
    '₦5,000.00',
    '₦0.00',
  ]);
  await chips.getByRole('button', { name: 'Sent' }).click();
  await expect(page.getByText('No cards sent')).toBeVisible();
  await expect(page.getByLabel('Sort by')).toBeDisabled();
  await page.goto('/user-dashboard/mycards?status=active&sort=balance');
  await expect(page.getByRole('button', { name: 'Active', pressed: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'mycards-filters');

  await context.close();
  await shop.context.close();
});

test('Sent lists the cards the user gave away, as they were handed on', async ({ browser }) => {
  test.setTimeout(240_000);
  const shop = await businessWithDesign(browser, { amount: 300_000, colour: '#1d4ed8' });
  const origin = new URL(shop.page.url()).origin;
  const { context, page } = await signedInUser(browser);
  const friend = await signedInUser(browser);
  const { cardId } = await buyThroughCheckout(page, shop.card.id);
  const sent = await page.request.post(`/api/v1/purchased-cards/${cardId}/gifts`, {
    data: { recipient: friend.input.username, recipientName: 'Ada' },
    headers: { origin },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const gift = (await sent.json()) as { id: string };
  const accepted = await friend.context.request.post(`/api/v1/gifts/${gift.id}/accept`, {
    data: {},
    headers: { origin },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  await page.goto('/user-dashboard/mycards');
  await expect(page.getByText("You'll see your gift cards soon.")).toBeVisible();
  await page.getByRole('group', { name: 'Show cards' }).getByRole('button', { name: 'Sent' }).click();
  await expect(page).toHaveURL(/\?status=sent$/);
  const list = page.getByRole('list', { name: 'Cards you sent' });
  await expect(list.getByRole('link', { name: /worth ₦3,000\.00, sent to Ada/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'mycards-sent');
  await friend.context.close();
  await context.close();
  await shop.context.close();
});
