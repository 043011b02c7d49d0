import { expect, test } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { formatCode } from '../../src/shared/cards/codes';
import { redeemMessages } from '../../src/shared/cards/schemas';
import { CHROMIUM_ARGS, testBrowser } from '../fixtures/browser';
import {
  businessWithDesign,
  buyThroughCheckout,
  revealCodeOnPage,
  screenshotsAtBothWidths,
  signedInUser,
} from './cards-support';
import { writeFakeCamera } from './fake-camera';
import { expectNoSeriousA11yViolations } from './support';

// Chromium's fake camera plays this file; each worker has its own, written with the QR a test needs just
// before it presses Scan (Chromium opens the file when the page opens the camera).
const cameraFile = path.join(os.tmpdir(), `giftmart-fake-camera-${process.pid}.y4m`);
writeFakeCamera(cameraFile, null);
const browserInfo = await testBrowser();

test.use({
  launchOptions: {
    executablePath: browserInfo.executablePath,
    env: browserInfo.env,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${cameraFile}`,
    ],
  },
});

test.describe('spending a gift card', () => {
  test('a business redeems part of a card by typing its code and the rest by scanning its QR; the holder sees both uses', async ({
    browser,
  }) => {
    // A long journey (till, holder, camera): on a loaded 2-core CI machine it can pass a minute.
    test.slow();
    const business = await businessWithDesign(
      browser,
      { amount: 750_000, colour: '#0f766e', validityMonths: 12 },
      { permissions: ['camera'] },
    );
    const holder = await signedInUser(browser);
    await buyThroughCheckout(holder.page, business.card.id);
    const code = await revealCodeOnPage(holder.page);
    const lastFour = code.split('-')[3]!;

    const till = business.page;
    const lookups: string[] = [];
    till.on('request', (request) => {
      if (request.url().endsWith('/api/v1/card-lookups')) lookups.push(request.url());
    });
    await till
      .getByRole('navigation', { name: 'Business dashboard' })
      .getByRole('link', { name: 'Redeem' })
      .click();
    await expect(till).toHaveURL(/\/dashboard\/redeem$/);
    await expect(till.getByRole('heading', { level: 1, name: 'Redeem a gift card' })).toBeVisible();
    await expectNoSeriousA11yViolations(till);
    await screenshotsAtBothWidths(till, 'redeem-page');

    // A mistyped character is caught by the check character: no look-up is spent on it.
    const field = till.getByLabel('Gift card code');
    const swapped = code[0] === '7' ? '8' : '7';
    await field.fill(`${swapped}${code.slice(1)}`);
    await expect(till.getByText(redeemMessages.typo)).toBeVisible();
    await till.getByRole('button', { name: 'Look up', exact: true }).click();
    await expect(till.getByText(redeemMessages.typo)).toBeVisible();
    expect(lookups).toHaveLength(0);

    // Typed in lower case with spaces, it is formatted as it is typed.
    await field.fill('');
    await field.pressSequentially(code.toLowerCase().replace(/-/g, ' '));
    await expect(field).toHaveValue(code);
    await till.getByRole('button', { name: 'Look up', exact: true }).click();
    await expect(till.getByRole('heading', { name: 'Card found' })).toBeVisible();
    expect(lookups).toHaveLength(1);
    await expect(till.getByTestId('card-balance')).toHaveText('₦7,500.00');
    const summary = till.getByRole('region', { name: 'Balance' });
    await expect(summary.getByText('Active', { exact: true })).toBeVisible();
    await expect(summary.getByText('Never')).toHaveCount(0); // 12 months' validity: it has an expiry date
    await expect(till.getByRole('button', { name: /^Refund ₦7,500\.00$/ })).toBeVisible();
    await expectNoSeriousA11yViolations(till);
    await screenshotsAtBothWidths(till, 'lookup-result');

    // Part of it, with a till reference, confirmed in a dialog.
    await till.getByLabel('Amount (₦)').fill('2500');
    await till.getByLabel('Till reference or note (optional)').fill('T-0001');
    await till.getByRole('button', { name: 'Redeem amount' }).click();
    const confirm = till.getByRole('dialog', { name: 'Redeem ₦2,500.00?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByText('₦5,000.00')).toBeVisible();
    await screenshotsAtBothWidths(till, 'confirm-dialog');
    await confirm.getByRole('button', { name: 'Redeem ₦2,500.00' }).click();

    await expect(till).toHaveURL(/\/dashboard\/redeem\/receipts\/[0-9a-f-]{36}$/);
    await expect(till.getByRole('heading', { name: '₦2,500.00 redeemed' })).toBeVisible();
    const receipt = till.locator('dl');
    await expect(receipt).toContainText('Balance left₦5,000.00');
    await expect(receipt).toContainText('ReferenceT-0001');
    await expect(receipt).toContainText(lastFour);
    await expect(till.getByRole('button', { name: 'Reverse' })).toBeVisible();
    await expectNoSeriousA11yViolations(till);
    await screenshotsAtBothWidths(till, 'receipt');
    // A reload reads the receipt back from the server.
    await till.reload();
    await expect(till.getByRole('heading', { name: '₦2,500.00 redeemed' })).toBeVisible();

    // The rest, by scanning the QR the holder's page shows (Chromium's fake camera plays it).
    await till.getByRole('link', { name: 'Redeem another card' }).click();
    await expect(till).toHaveURL(/\/dashboard\/redeem$/);
    // The camera starts and shows a blank picture; Stop scanning turns it off.
    await till.getByRole('button', { name: 'Scan' }).click();
    await expect(till.getByText('Point the camera at the QR code on the customer’s card.')).toBeVisible({
      timeout: 20_000,
    });
    await screenshotsAtBothWidths(till, 'scanner');
    await till.getByRole('button', { name: 'Stop scanning' }).click();
    await expect(till.getByRole('region', { name: 'Scan the card’s QR code' })).toHaveCount(0);
    writeFakeCamera(cameraFile, code);
    await till.getByRole('button', { name: 'Scan' }).click();
    await expect(till.getByRole('heading', { name: 'Card found' })).toBeVisible({ timeout: 20_000 });
    await expect(till.getByLabel('Gift card code')).toHaveValue(code);
    await expect(till.getByTestId('card-balance')).toHaveText('₦5,000.00');
    await expect(till.getByRole('button', { name: /^Refund/ })).toHaveCount(0); // used: no longer refundable
    await till.getByRole('button', { name: 'Redeem all (₦5,000.00)' }).click();
    const all = till.getByRole('dialog', { name: 'Redeem ₦5,000.00?' });
    await expect(all.getByText('This takes the whole balance')).toBeVisible();
    await all.getByRole('button', { name: 'Redeem ₦5,000.00' }).click();
    await expect(till.getByRole('heading', { name: '₦5,000.00 redeemed' })).toBeVisible();
    await expect(till.locator('dl')).toContainText('Balance left₦0.00');

    // Sold cards: newest first, found by the last four, each row opening the card.
    await till.goto('/dashboard/sold-cards');
    await expect(till.getByRole('heading', { level: 1, name: 'Sold cards' })).toBeVisible();
    await till.getByLabel('Search by the code’s last four').fill(lastFour.toLowerCase());
    await expect(till).toHaveURL(new RegExp(`\\?q=${lastFour}$`));
    const row = till.getByRole('link', { name: new RegExp(`^Card ending ${lastFour}, .*Used up$`) });
    await expect(row).toBeVisible();
    await expectNoSeriousA11yViolations(till);
    await screenshotsAtBothWidths(till, 'sold-cards');
    await row.click();
    await expect(till.getByRole('heading', { level: 1, name: `Card ending ${lastFour}` })).toBeVisible();
    const uses = till.getByRole('region', { name: 'Last uses' });
    await expect(uses.getByText(`Redeemed at ${business.input.name} (ref T-0001)`)).toBeVisible();
    await expect(uses.getByText(`Redeemed at ${business.input.name}`, { exact: true })).toBeVisible();
    await screenshotsAtBothWidths(till, 'sold-card');

    // The holder sees both uses, each with the balance after it.
    await holder.page.reload();
    const history = holder.page.getByRole('region', { name: 'History' });
    const partial = history.getByRole('listitem').filter({ hasText: '(ref T-0001)' });
    await expect(partial).toContainText(`Redeemed at ${business.input.name} (ref T-0001)`);
    await expect(partial).toContainText('−₦2,500.00');
    await expect(partial).toContainText('Balance after ₦5,000.00');
    const rest = history.getByRole('listitem').filter({ hasText: '−₦5,000.00' });
    await expect(rest).toContainText(`Redeemed at ${business.input.name}`);
    await expect(rest).toContainText('Balance after ₦0.00');
    await expect(history.getByRole('listitem')).toHaveCount(3); // issued, and the two uses
    await expect(holder.page.getByText('This card has been used up.')).toBeVisible();
    await expectNoSeriousA11yViolations(holder.page);
    await screenshotsAtBothWidths(holder.page, 'holder-card');

    await business.context.close();
    await holder.context.close();
  });

  test('reverse a mistake, freeze and block refuse redemption, an unused card is refunded, and anyone checks a balance', async ({
    browser,
  }) => {
    // A long journey (till, holder, camera): on a loaded 2-core CI machine it can pass a minute.
    test.slow();
    const business = await businessWithDesign(browser, { amount: 500_000, colour: '#b91c1c' });
    const holder = await signedInUser(browser);
    const { cardId: usedId } = await buyThroughCheckout(holder.page, business.card.id);
    const code = await revealCodeOnPage(holder.page);
    const unused = await buyThroughCheckout(holder.page, business.card.id);
    const unusedLastFour = (await revealCodeOnPage(holder.page)).split('-')[3]!;

    // The public balance page: no login, one message for every failure.
    const visitor = await browser.newPage();
    await visitor.goto('/');
    await visitor.getByRole('link', { name: 'Check a card balance' }).click();
    await expect(visitor).toHaveURL(/\/balance$/);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Check a balance' })).toBeVisible();
    const codeField = visitor.getByLabel('Gift card code');
    await codeField.fill(formatCode('0000000000000000'));
    await visitor.getByRole('button', { name: 'Check balance' }).click();
    await expect(visitor.getByText(redeemMessages.balanceNotFound)).toBeVisible();
    await codeField.fill(code.toLowerCase());
    await visitor.getByRole('button', { name: 'Check balance' }).click();
    const result = visitor.getByRole('region', { name: 'Balance' });
    await expect(result).toContainText('₦5,000.00');
    await expect(result).toContainText('Active');
    await expect(result).toContainText('Never');
    await expectNoSeriousA11yViolations(visitor);
    await screenshotsAtBothWidths(visitor, 'balance-page');
    await visitor.close();

    // A redemption made by mistake is reversed from its receipt.
    const till = business.page;
    await till.goto('/dashboard/redeem');
    await till.getByLabel('Gift card code').fill(code);
    await till.getByRole('button', { name: 'Look up', exact: true }).click();
    await till.getByLabel('Amount (₦)').fill('1000');
    await till.getByRole('button', { name: 'Redeem amount' }).click();
    await till.getByRole('dialog').getByRole('button', { name: 'Redeem ₦1,000.00' }).click();
    await expect(till.getByRole('heading', { name: '₦1,000.00 redeemed' })).toBeVisible();
    await till.getByRole('button', { name: 'Reverse' }).click();
    const reverse = till.getByRole('dialog', { name: 'Reverse this ₦1,000.00 redemption?' });
    await reverse.getByRole('button', { name: 'Reverse redemption' }).click();
    await expect(
      till.getByText('Reversed: ₦1,000.00 went back on the card. Its balance is now ₦5,000.00.'),
    ).toBeVisible();
    await expect(till.getByText(/^Reversed on /)).toBeVisible();
    await expect(till.getByRole('button', { name: 'Reverse' })).toHaveCount(0);

    // The holder sees the use, marked reversed, and the reversal; then freezes the card.
    await holder.page.goto(`/user-dashboard/mycards/${usedId}`);
    const history = holder.page.getByRole('region', { name: 'History' });
    await expect(history.getByRole('listitem').filter({ hasText: 'Redeemed at' })).toContainText('Reversed');
    await expect(history.getByText(`Reversed by ${business.input.name}`)).toBeVisible();
    await holder.page.getByRole('button', { name: 'Freeze card' }).click();
    const freeze = holder.page.getByRole('dialog', { name: 'Freeze this card?' });
    await expect(freeze.getByText('Nobody can spend it until you unfreeze it.')).toBeVisible();
    await freeze.getByRole('button', { name: 'Freeze card' }).click();
    await expect(holder.page.getByText('You froze this card')).toBeVisible();
    await expect(history.getByText('Frozen by you')).toBeVisible();

    // The till sees why it cannot take payment.
    await till.getByRole('link', { name: 'Redeem another card' }).click();
    await till.getByLabel('Gift card code').fill(code);
    await till.getByRole('button', { name: 'Look up', exact: true }).click();
    await expect(till.getByText('The holder froze this card.')).toBeVisible();
    await expect(till.getByRole('button', { name: 'Redeem amount' })).toHaveCount(0);

    await holder.page.getByRole('button', { name: 'Unfreeze' }).click();
    await expect(holder.page.getByRole('button', { name: 'Freeze card' })).toBeVisible();

    // Block (with a reason) and unblock from the look-up.
    await till.getByRole('button', { name: 'Look up', exact: true }).click();
    await expect(till.getByRole('button', { name: 'Redeem amount' })).toBeVisible();
    await till.getByRole('button', { name: 'Block card' }).click();
    const block = till.getByRole('dialog', { name: 'Block this card?' });
    await block.getByLabel('Reason (optional)').fill('Reported lost');
    await block.getByRole('button', { name: 'Block card' }).click();
    await expect(till.getByText('You blocked this card.')).toBeVisible();
    await expect(till.getByRole('button', { name: 'Redeem amount' })).toHaveCount(0);
    await holder.page.reload();
    await expect(history.getByText(`Blocked by ${business.input.name} (ref Reported lost)`)).toBeVisible();
    await till.getByRole('button', { name: 'Unblock card' }).click();
    await expect(till.getByRole('button', { name: 'Redeem amount' })).toBeVisible();

    // The unused card is refunded from Sold cards: the buyer gets the money back, the card is void.
    await till.goto(`/dashboard/sold-cards?q=${unusedLastFour}`);
    await till.getByRole('link', { name: new RegExp(`^Card ending ${unusedLastFour}`) }).click();
    await till.getByRole('button', { name: 'Refund ₦5,000.00' }).click();
    const refund = till.getByRole('dialog', { name: 'Refund ₦5,000.00?' });
    await expect(refund.getByText(/the same amount leaves\s+your wallet/)).toBeVisible();
    await refund.getByRole('button', { name: 'Refund the buyer' }).click();
    await expect(till.getByText('This card was refunded to the buyer.')).toBeVisible();
    await expect(till.getByTestId('card-balance')).toHaveText('₦0.00');

    // The buyer's order and card say so.
    await holder.page.goto(`/user-dashboard/orders/${unused.orderId}`);
    await expect(holder.page.getByRole('heading', { name: 'Payment refunded' })).toBeVisible();
    await holder.page.getByRole('link', { name: 'See the card’s history' }).click();
    await expect(holder.page).toHaveURL(new RegExp(`/user-dashboard/mycards/${unused.cardId}$`));
    await expect(holder.page.getByText('This card was refunded and can no longer be spent.')).toBeVisible();
    await expect(
      holder.page.getByRole('region', { name: 'History' }).getByText(`Refunded by ${business.input.name}`),
    ).toBeVisible();

    await business.context.close();
    await holder.context.close();
  });
});
