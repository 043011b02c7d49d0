import { expect, test, type Page } from '@playwright/test';
import {
  businessWithDesign,
  buyThroughCheckout,
  screenshotsAtBothWidths,
  signedInUser,
} from './cards-support';
import { DEFAULT_PASSWORD, expectNoSeriousA11yViolations } from './support';

/**
 * The profile (issue 12): editing it, changing the e-mail through the mailed link, and deleting a user
 * account whose card is given up. Screenshots at 1280 and 375 px go to E2E_SCREENSHOTS (or the test output).
 */

const newAddress = () =>
  `moved-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

async function mailedLink(page: Page, to: string): Promise<string> {
  let path: string | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(to)}`);
      const mails = (await res.json()).items as { kind: string; text: string }[];
      const mail = mails.find((m) => m.kind === 'email_change');
      path = mail ? /\/confirm-email#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0] : undefined;
      return path;
    })
    .toBeTruthy();
  return path!;
}

test('a user edits the profile and changes the e-mail through the mailed link', async ({ browser }) => {
  const { page, input } = await signedInUser(browser);
  await page.goto('/user-dashboard/profile');
  const form = page.getByRole('region', { name: 'Edit profile' });
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue(input.name);

  // Registration's rules, in the browser before the server.
  await form.getByLabel('Phone number').fill('12');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('please enter a Nigerian phone number of at least 11 digits')).toBeVisible();

  await form.getByLabel('Name', { exact: true }).fill('Adaeze Okafor');
  await form.getByLabel('Phone number').fill('0803 555 0101');
  const username = `ada_${Date.now().toString(36)}`;
  await form.getByLabel('Username').fill(username);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Your profile was saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Adaeze Okafor' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'Personal' }).getByText(`@${username}`)).toBeVisible();
  // The header's profile (the persisted store) follows too.
  await expect(page.getByRole('banner').getByText(`@${username}`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'profile-form');

  // The new address gets a link; the e-mail changes only when it is opened (here, in another browser).
  const moved = newAddress();
  await form.getByRole('button', { name: 'Change e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your e-mail' });
  await dialog.getByLabel('New e-mail address').fill(moved);
  await dialog.getByLabel('Your password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Send the link' }).click();
  await expect(dialog.getByText('That password is not correct.')).toBeVisible();
  await dialog.getByLabel('Your password').fill(DEFAULT_PASSWORD);
  await screenshotsAtBothWidths(page, 'profile-email-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Send the link' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`We sent a link to ${moved}. Your e-mail changes when you open it.`),
  ).toBeVisible();
  await expect(form.getByText(input.email)).toBeVisible();

  const link = await mailedLink(page, moved);
  const other = await browser.newPage();
  await other.goto(link);
  await expect(other.getByText(`Your e-mail address is now ${moved}.`)).toBeVisible();
  await expect(other).toHaveURL(/\/confirm-email$/);
  await expect(other.getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
  await screenshotsAtBothWidths(other, 'profile-email-confirmed');
  // Used once: opening it again says so.
  const again = await browser.newPage();
  await again.goto(link);
  await expect(again.getByText(/This link is not valid any more/)).toBeVisible();

  await page.reload();
  await expect(page.getByRole('region', { name: 'Edit profile' }).getByText(moved)).toBeVisible();
});

test('a user holding a card deletes the account by giving the card up; the login then fails', async ({
  browser,
}) => {
  test.slow();
  const business = await businessWithDesign(browser, { amount: 450_000, colour: '#0f766e' });
  const { page, input } = await signedInUser(browser);
  await buyThroughCheckout(page, business.card.id);

  await page.goto('/user-dashboard/profile');
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Delete My Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account' });
  await expect(dialog.getByText('You still have 1 card worth')).toBeVisible();
  const giveUp = dialog.getByLabel('Give up these cards (1 card, ₦4,500.00)');
  await expect(giveUp).toBeVisible();
  const final = dialog.getByRole('button', { name: 'Delete my account for good' });
  await expect(final).toBeDisabled();
  await dialog.getByLabel('Your password').fill(DEFAULT_PASSWORD);
  await giveUp.check();
  await expect(final).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await screenshotsAtBothWidths(page, 'profile-delete-dialog-cards', { fullPage: false });
  await final.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  const stored = await page.evaluate(() => localStorage.getItem('persist:giftmart'));
  expect(stored ?? '').not.toContain(input.email);

  const login = await page.request.post('/api/v1/auth/login', {
    data: { email: input.email, password: DEFAULT_PASSWORD },
  });
  expect(login.status()).toBe(401);

  // The business sees the card it sold at ₦0 (given up), and is refused deletion while its wallet holds money.
  await business.page.goto('/dashboard/account?tab=security');
  await business.page.getByRole('button', { name: 'Delete My Account' }).click();
  const blocked = business.page.getByRole('dialog', { name: 'Delete your account' });
  await expect(blocked.getByText('Your account cannot be deleted yet:')).toBeVisible();
  await expect(blocked.getByText('Your wallet still holds ₦4,500.00. Withdraw it first.')).toBeVisible();
  await expectNoSeriousA11yViolations(business.page);
  await screenshotsAtBothWidths(business.page, 'profile-delete-dialog-blockers', { fullPage: false });
});
