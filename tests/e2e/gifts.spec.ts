import { expect, test } from '@playwright/test';
import { GIFT_RECEIVED_TITLE } from '../../src/shared/notifications/schemas';
import {
  businessWithDesign,
  buyThroughCheckout,
  CODE_PATTERN,
  revealCodeOnPage,
  screenshotsAtBothWidths,
  signedInUser,
} from './cards-support';
import {
  DEFAULT_PASSWORD,
  expectNoSeriousA11yViolations,
  logInViaForm,
  registerViaApi,
  userInput,
} from './support';

/** An address nobody has an account for yet. */
function newAddress(): string {
  return `friend-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The last four of a code (the group before the check character). */
const lastFour = (code: string) => code.split('-')[3]!;

test.describe('gifts', () => {
  test('A sends a card to an e-mail with no account; B follows the mailed link, signs up, accepts and gets a new code; A sees it go', async ({
    browser,
  }) => {
    // A long journey through several browsers: on a loaded 2-core CI machine it can pass a minute.
    test.slow();
    const business = await businessWithDesign(browser, { amount: 500_000, colour: '#7c3aed' });
    const a = await signedInUser(browser);
    const { cardId } = await buyThroughCheckout(a.page, business.card.id);
    const aCode = await revealCodeOnPage(a.page);

    // A sends it: the dialog, its counter, its check of the address, then the gift waiting on the card.
    const email = newAddress();
    await a.page.getByRole('button', { name: 'Send as a gift' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Send as a gift' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Send gift' }).click();
    await expect(
      dialog.getByText('Enter the e-mail address or Giftmart username of the person you are sending it to.'),
    ).toBeVisible();
    await dialog.getByLabel('Recipient’s e-mail or username').fill(email);
    await dialog.getByLabel('Their name (optional)').fill('Bola');
    await dialog.getByLabel('Message (optional)').fill('Happy birthday, Bola!');
    await expect(dialog.getByText('21 / 500 characters')).toBeVisible();
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-send-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Send gift' }).click();
    await expect(dialog).toBeHidden();

    const pending = a.page.getByRole('region', { name: 'Gift on its way' });
    await expect(pending).toBeVisible();
    await expect(pending.getByText(`(${email})`)).toBeVisible();
    await expect(pending.getByText('“Happy birthday, Bola!”')).toBeVisible();
    await expect(pending.getByRole('button', { name: 'Cancel gift' })).toBeVisible();
    await expect(pending.getByRole('button', { name: 'Correct address' })).toBeVisible();
    await expect(a.page.getByText('Gift pending', { exact: true })).toBeVisible();
    await expect(a.page.getByRole('button', { name: 'Send as a gift' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-card-pending');

    // A's Gifts, Sent tab.
    await a.page
      .getByRole('navigation', { name: 'User dashboard' })
      .getByRole('link', { name: 'Gifts' })
      .click();
    await expect(a.page.getByRole('heading', { level: 1, name: 'Gifts' })).toBeVisible();
    await a.page.getByRole('tab', { name: 'Sent' }).click();
    await expect(a.page).toHaveURL(/\/user-dashboard\/gifts\?tab=sent$/);
    const sent = a.page.getByRole('list', { name: 'Gifts you sent' });
    await expect(sent.getByText('Waiting', { exact: true })).toBeVisible();
    await expect(sent.getByRole('button', { name: /^Cancel gift/ })).toBeVisible();
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-list-sent');

    // The mail, kept in the local mailbox.
    const b = await browser.newContext();
    const bPage = await b.newPage();
    await bPage.goto('/dev/mailbox');
    await expect(bPage.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
    await bPage.getByLabel('Only mail to').fill(email);
    await expect(bPage).toHaveURL(/\/dev\/mailbox\?to=/);
    const mail = bPage.getByRole('list', { name: 'Mail, newest first' }).getByRole('listitem').first();
    await expect(mail).toContainText(email, { timeout: 15_000 });
    await mail.locator('summary').click();
    const link = mail.getByRole('link', { name: /\/gifts\/[0-9a-f-]{36}#token=/ });
    await expect(link).toBeVisible();
    await expectNoSeriousA11yViolations(bPage);
    await screenshotsAtBothWidths(bPage, 'gifts-mailbox');
    const href = (await link.getAttribute('href'))!;
    const giftId = /\/gifts\/([0-9a-f-]{36})#/.exec(href)![1]!;

    // A business opening the link is told that gifts go to personal accounts.
    await business.page.goto(href);
    await expect(business.page.getByText('You are signed in as a business.')).toBeVisible();
    await expect(business.page.getByRole('button', { name: 'Accept gift' })).toHaveCount(0);
    await screenshotsAtBothWidths(business.page, 'gifts-landing-business');

    // B follows it: the gift as its link shows it, the token out of the address bar.
    await link.click();
    await expect(bPage).toHaveURL(new RegExp(`/gifts/${giftId}$`));
    await expect(
      bPage.getByRole('heading', { level: 1, name: `${a.input.name} sent you a gift card` }),
    ).toBeVisible();
    await expect(bPage.getByText('“Happy birthday, Bola!”')).toBeVisible();
    await expect(bPage.getByText('₦5,000.00').first()).toBeVisible();
    await expectNoSeriousA11yViolations(bPage);
    await screenshotsAtBothWidths(bPage, 'gifts-landing-signed-out');

    // Sign up through it, log in, and land back on the gift.
    await bPage.getByRole('link', { name: 'Sign up to accept' }).click();
    await expect(bPage).toHaveURL(new RegExp(`/register\\?next=%2Fgifts%2F${giftId}$`));
    await expect(bPage.getByText('Create a free account to accept your gift card.')).toBeVisible();
    const bInput = userInput({ email });
    await bPage.getByLabel('Full name').fill(bInput.name);
    await bPage.getByLabel('Username').fill(bInput.username);
    await bPage.getByLabel('Email').fill(email);
    await bPage.getByLabel('Phone number').fill(bInput.phoneNumber);
    await bPage.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await bPage.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await bPage.getByLabel(/I agree to the/).check();
    await bPage.getByRole('button', { name: 'Create account' }).click();
    await expect(bPage).toHaveURL(new RegExp(`/login\\?next=%2Fgifts%2F${giftId}$`), { timeout: 5000 });
    await expect(bPage.getByText('Log in to accept your gift card.')).toBeVisible();
    await screenshotsAtBothWidths(bPage, 'gifts-login-for-gift');
    await bPage.getByLabel('Email or username').fill(email);
    await bPage.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await bPage.getByRole('button', { name: 'Log in' }).click();
    await expect(bPage).toHaveURL(new RegExp(`/gifts/${giftId}$`), { timeout: 5000 });
    await expect(bPage.getByRole('button', { name: 'Accept gift' })).toBeVisible();
    await expectNoSeriousA11yViolations(bPage);
    await screenshotsAtBothWidths(bPage, 'gifts-landing-user');

    // Accept: B's card, with a code of its own.
    await bPage.getByRole('button', { name: 'Accept gift' }).click();
    await expect(bPage).toHaveURL(/\/user-dashboard\/mycards\/[0-9a-f-]{36}$/);
    // The same card, moved to B: its code is new, and the one A saw no longer works.
    expect(bPage.url()).toContain(cardId);
    await expect(bPage.getByText('₦5,000.00').first()).toBeVisible();
    const bCode = await revealCodeOnPage(bPage);
    expect(bCode).toMatch(CODE_PATTERN);
    expect(lastFour(bCode)).not.toBe(lastFour(aCode));
    await bPage.goto('/user-dashboard/gifts');
    await expect(
      bPage.getByRole('list', { name: 'Gifts you received' }).getByText('Accepted', { exact: true }),
    ).toBeVisible();
    await screenshotsAtBothWidths(bPage, 'gifts-list-received');

    // A: the card is gone from My Gift Cards, and the news is in Notifications.
    await a.page.goto('/user-dashboard/mycards');
    await expect(a.page.getByText("You'll see your gift cards soon.")).toBeVisible();
    await a.page.goto('/user-dashboard/notify');
    await expect(a.page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const news = a.page.getByRole('list', { name: 'Your notifications' });
    await expect(news.getByRole('link', { name: /accepted/i }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-notifications');
    await a.page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(a.page.getByText('All caught up.')).toBeVisible();
    await expect(
      a.page.getByRole('navigation', { name: 'User dashboard' }).getByRole('link', { name: 'Notifications' }),
    ).toHaveAccessibleName('Notifications');

    await b.close();
    await a.context.close();
    await business.context.close();
  });

  test('a card bought as a gift can be cancelled before it is accepted: it comes back to the buyer, active', async ({
    browser,
  }) => {
    // A long journey through several browsers: on a loaded 2-core CI machine it can pass a minute.
    test.slow();
    const business = await businessWithDesign(browser, { amount: 250_000, colour: '#0f766e' });
    const a = await signedInUser(browser);
    const email = newAddress();

    await a.page.goto(`/user-dashboard/card/${business.card.id}`);
    await a.page.getByRole('button', { name: 'Buy as a gift' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Buy as a gift' });
    await dialog.getByLabel('Recipient’s e-mail or username').fill('not an address');
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(dialog.getByText(/Enter a valid e-mail address or a Giftmart username/)).toBeVisible();
    await dialog.getByLabel('Recipient’s e-mail or username').fill(email);
    await dialog.getByLabel('Their name (optional)').fill('Chidi');
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-buy-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();

    await expect(a.page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
    await a.page.getByLabel('Card number').fill('4084 0840 8408 4081');
    await a.page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await a.page.getByLabel('CVV').fill('408');
    await a.page.getByRole('button', { name: /^Pay ₦/ }).click();
    await expect(a.page.getByRole('heading', { name: 'Payment successful' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(a.page.getByText(`Your gift is on its way to Chidi (${email}).`)).toBeVisible();
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-order-paid');

    await a.page.getByRole('link', { name: 'View the card' }).click();
    const pending = a.page.getByRole('region', { name: 'Gift on its way' });
    await expect(pending.getByText(`(${email})`)).toBeVisible();

    // A typo in the address: corrected, and the new address gets the gift.
    const corrected = newAddress();
    await pending.getByRole('button', { name: 'Correct address' }).click();
    const correct = a.page.getByRole('dialog', { name: 'Correct the address' });
    await expect(correct.getByLabel('Recipient’s e-mail or username')).toHaveValue(email);
    await correct.getByLabel('Recipient’s e-mail or username').fill(corrected);
    await screenshotsAtBothWidths(a.page, 'gifts-correct-dialog', { fullPage: false });
    await correct.getByRole('button', { name: 'Save address' }).click();
    await expect(correct).toBeHidden();
    await expect(pending.getByText(`(${corrected})`)).toBeVisible();

    await pending.getByRole('button', { name: 'Cancel gift' }).click();
    const confirm = a.page.getByRole('dialog', { name: 'Cancel this gift?' });
    await expect(confirm.getByRole('button', { name: 'Keep the gift' })).toBeFocused();
    await screenshotsAtBothWidths(a.page, 'gifts-cancel-dialog', { fullPage: false });
    await confirm.getByRole('button', { name: 'Cancel gift' }).click();
    await expect(confirm).toBeHidden();
    await expect(pending).toBeHidden();
    await expect(a.page.getByText('Active', { exact: true })).toBeVisible();
    await expect(a.page.getByRole('button', { name: 'Send as a gift' })).toBeVisible();
    await expect(a.page.getByText('₦2,500.00').first()).toBeVisible();

    await a.page.goto('/user-dashboard/gifts?tab=sent');
    await expect(
      a.page.getByRole('list', { name: 'Gifts you sent' }).getByText('Cancelled', { exact: true }),
    ).toBeVisible();
    await a.page.goto('/user-dashboard/mycards');
    await expect(
      a.page.getByRole('link', { name: new RegExp(`${business.input.name} gift card.*Active`) }),
    ).toBeVisible();

    await a.context.close();
    await business.context.close();
  });

  test('the unread badge follows a gift sent from another session, without a reload, over one stream per tab', async ({
    browser,
  }) => {
    // A long journey through several browsers: on a loaded 2-core CI machine it can pass a minute.
    test.slow();
    const business = await businessWithDesign(browser, { amount: 100_000, colour: '#f59e0b' });
    // A, counting the notification streams the tab opens from the moment it signs in.
    const aContext = await browser.newContext();
    const a = { context: aContext, page: await aContext.newPage() };
    const streams: string[] = [];
    const ended: string[] = [];
    const isStream = (url: string) => url.endsWith('/api/v1/notifications/stream');
    a.page.on('request', (request) => {
      if (isStream(request.url())) streams.push(request.url());
    });
    const onEnd = (request: { url: () => string }) => {
      if (isStream(request.url())) ended.push(request.url());
    };
    a.page.on('requestfinished', onEnd);
    a.page.on('requestfailed', onEnd);
    const aInput = await registerViaApi(a.page, 'user');
    await logInViaForm(a.page, 'user', aInput.email);
    const nav = a.page.getByRole('navigation', { name: 'User dashboard' });
    const bell = nav.getByRole('link', { name: /^Notifications/ });
    // The welcome notification.
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await nav.getByRole('link', { name: 'My Gift Cards' }).click();
    await nav.getByRole('link', { name: 'Gifts' }).click();
    await expect(a.page.getByRole('tab', { name: 'Received' })).toHaveAttribute('aria-selected', 'true');
    await expect(a.page.getByText('No gifts yet')).toBeVisible();

    // Someone else, in their own browser, sends A a card by username.
    const c = await signedInUser(browser);
    const { cardId } = await buyThroughCheckout(c.page, business.card.id);
    const origin = new URL(c.page.url()).origin;
    const sent = await c.context.request.post(`/api/v1/purchased-cards/${cardId}/gifts`, {
      data: { recipient: aInput.username, message: 'For you' },
      headers: { origin },
    });
    expect(sent.status(), await sent.text()).toBe(201);

    // A's badge and the open Gifts page change by themselves.
    await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
    await expect(bell).toHaveText(/2/);
    const received = a.page.getByRole('list', { name: 'Gifts you received' });
    await expect(received.getByText('Waiting', { exact: true })).toBeVisible();
    await expect(received.getByRole('button', { name: /^Accept/ })).toBeVisible();
    await expectNoSeriousA11yViolations(a.page);
    await screenshotsAtBothWidths(a.page, 'gifts-list-received-pending');

    await a.page.setViewportSize({ width: 375, height: 812 });
    await expect(a.page.getByRole('button', { name: 'Open menu, 2 unread' })).toBeVisible();
    await a.page.setViewportSize({ width: 1280, height: 900 });

    // The notification leads to the gift and is read once opened.
    await bell.click();
    const row = a.page.getByRole('link', { name: new RegExp(GIFT_RECEIVED_TITLE.replace('.', '\\.')) });
    await expect(row).toContainText('Unread');
    await row.click();
    await expect(a.page).toHaveURL(/\/gifts\/[0-9a-f-]{36}$/);
    await expect(
      a.page.getByRole('heading', { level: 1, name: `${c.input.name} sent you a gift card` }),
    ).toBeVisible();
    await a.page.getByRole('button', { name: 'Accept gift' }).click();
    await expect(a.page).toHaveURL(/\/user-dashboard\/mycards\/[0-9a-f-]{36}$/);
    // The welcome and "A gift card is yours" are unread; the gift's own notification was read when opened.
    await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
    expect(streams).toHaveLength(1);
    expect(ended).toHaveLength(0);

    // C's badge heard about it too (the acceptance), and the business sees its notifications page.
    await expect(
      c.page
        .getByRole('navigation', { name: 'User dashboard' })
        .getByRole('link', { name: /^Notifications, \d+ unread$/ }),
    ).toBeVisible();
    await business.page.goto('/dashboard/notify');
    await expect(business.page.getByRole('heading', { level: 1, name: 'Notification' })).toBeVisible();
    await expect(business.page.getByRole('list', { name: 'Your notifications' })).toBeVisible();
    await expectNoSeriousA11yViolations(business.page);
    await screenshotsAtBothWidths(business.page, 'gifts-notifications-business');

    // Log out closes the stream, and nothing opens another.
    await a.page.getByRole('button', { name: 'Log Out' }).click();
    await expect(a.page).toHaveURL(/\/$/);
    await expect.poll(() => ended.length).toBe(1);
    expect(streams).toHaveLength(1);

    await a.context.close();
    await c.context.close();
    await business.context.close();
  });

  test('the mailbox says so when mail goes through SMTP', async ({ page }) => {
    await page.route('**/api/dev/mailbox*', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'NOT_FOUND', message: 'No such API route' }),
      }),
    );
    await page.goto('/dev/mailbox');
    await expect(page.getByText('Mail is sent through SMTP here; there is no local mailbox.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshotsAtBothWidths(page, 'gifts-mailbox-smtp');
  });

  test('a gift link with a bad token says so; a login page will not send anyone off the site', async ({
    page,
  }) => {
    await page.goto('/gifts/00000000-0000-4000-8000-000000000000#token=not-a-real-token');
    await expect(page.getByRole('heading', { level: 1, name: 'We couldn’t find this gift' })).toBeVisible();
    const user = userInput();
    expect((await page.request.post('/api/v1/users', { data: user })).status()).toBe(201);
    await page.goto('/login?next=//evil.example/steal');
    await page.getByLabel('Email or username').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/user-dashboard$/);
  });
});
