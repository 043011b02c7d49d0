import { expect, test, type APIRequestContext } from '@playwright/test';
import { screenshotsAtBothWidths } from './cards-support';
import { DEFAULT_PASSWORD, expectNoSeriousA11yViolations, logInViaForm, registerViaApi } from './support';

/**
 * Passwords and devices (issue 12): forgot → mailed link → new password → log in with it; change the
 * password in Security; the signed-in devices list and signing another device out. Screenshots at 1280
 * and 375 px go to E2E_SCREENSHOTS (or the test output), each checked for sideways scroll.
 */
const NEW_PASSWORD = 'fresh-password-2026';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The reset link from the newest reset mail to `email`, read from the local mailbox. */
async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
      const { items } = (await res.json()) as { items: { kind: string; text: string }[] };
      const mail = items.find((m) => m.kind === 'password_reset');
      link = mail
        ? /(https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]+&role=\w+)/.exec(mail.text)?.[1]
        : undefined;
      return Boolean(link);
    })
    .toBe(true);
  return new URL(link!).pathname + new URL(link!).hash;
}

test.describe('account security', () => {
  test('forgot password from the login screen: mailed link, new password, log in with it', async ({
    page,
  }) => {
    const user = await registerViaApi(page, 'user');
    await page.goto('/login');
    await screenshotsAtBothWidths(page, 'login-forgot-link');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password\?role=user$/);
    // The login page stays on screen while the next page's code loads, and its "Email or username" field
    // would take the typing: wait for the new page first.
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      "If an account uses that address, we've sent a link to reset the password. It works for 30 minutes.",
    );

    // An address with no account gets the very same words.
    await page.getByRole('button', { name: 'try again' }).click();
    await page.getByLabel('Email', { exact: true }).fill(`nobody-${Date.now()}@example.test`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(/If an account uses that address/);
    await expect(page.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    await screenshotsAtBothWidths(page, 'forgot-password-sent');

    const link = await resetLinkFor(page.request, user.email);
    await page.goto(link);
    // The token is taken out of the address bar at once.
    await expect(page).toHaveURL(/\/reset-password$/);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill('something-else-1');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('passwords must match')).toBeVisible();
    await screenshotsAtBothWidths(page, 'reset-password-form');
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('status')).toHaveText('Your password was changed. Log in with the new one.');
    await expectNoSeriousA11yViolations(page);
    await screenshotsAtBothWidths(page, 'reset-password-done');

    // The link works once (opened afresh, as from the mail).
    await page.goto('/');
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-password-3');
    await page.getByLabel('Confirm new password').fill('another-password-3');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This reset link has expired or was already used. Ask for a new one.',
    );
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password?role=user',
    );
    await screenshotsAtBothWidths(page, 'reset-password-invalid');

    await logInViaForm(page, 'user', user.email, NEW_PASSWORD);
  });

  test('a business changes its password in Security; the devices list signs another device out', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const business = await registerViaApi(page, 'business');
    // Another device: its own cookie jar and browser, signed in through the API.
    const other = await playwright.request.newContext({ baseURL, userAgent: IPHONE_SAFARI });
    const otherLogin = await other.post('/api/v1/auth/login', {
      data: { email: business.email, password: DEFAULT_PASSWORD, remember: true },
    });
    expect(otherLogin.status()).toBe(200);

    await logInViaForm(page, 'business', business.email);
    await page.goto('/dashboard/account?tab=security');
    await expect(page.getByRole('button', { name: /Transaction PIN/ })).toBeVisible();
    await expect(page.getByText('Coming soon')).toHaveCount(0);

    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(2);
    await expect(devices.getByText('This device')).toHaveCount(1);
    await expect(devices.getByText('Chrome on Windows')).toBeVisible();
    await expect(devices.getByText('Safari on iPhone')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await screenshotsAtBothWidths(page, 'security-business');

    await devices.getByRole('button', { name: 'Sign out Safari on iPhone (127.0.0.1)' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    expect((await other.get('/api/v1/auth/session')).status()).toBe(401);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);

    // Change the password: a wrong current one is said under its field; then it works.
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Current password').fill('not-the-password');
    await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect(dialog.getByText('That is not your current password.')).toBeVisible();
    await screenshotsAtBothWidths(page, 'change-password-dialog', { fullPage: false });
    await dialog.getByLabel('Current password').fill(DEFAULT_PASSWORD);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('heading', { name: /Password changed/ })).toBeVisible();
    await page.getByRole('button', { name: 'OK' }).click();
    // This device stays signed in; the new password is the one that works.
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    const fresh = await playwright.request.newContext({ baseURL });
    expect(
      (
        await fresh.post('/api/v1/auth/login', {
          data: { email: business.email, password: DEFAULT_PASSWORD },
        })
      ).status(),
    ).toBe(401);
    expect(
      (
        await fresh.post('/api/v1/auth/login', { data: { email: business.email, password: NEW_PASSWORD } })
      ).status(),
    ).toBe(200);
    await other.dispose();
    await fresh.dispose();
  });

  test('a user has no PIN row; "Sign out everywhere else" ends the other sessions', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const user = await registerViaApi(page, 'user');
    const others = await Promise.all(
      [0, 1].map(async () => {
        const ctx = await playwright.request.newContext({ baseURL });
        const res = await ctx.post('/api/v1/auth/login', {
          data: { email: user.email, password: DEFAULT_PASSWORD },
        });
        expect(res.status()).toBe(200);
        return ctx;
      }),
    );
    await logInViaForm(page, 'user', user.email);
    await page.goto('/user-dashboard/profile');
    await page.getByRole('tab', { name: 'Security' }).click();
    await expect(page.getByText(/Transaction PIN/)).toHaveCount(0);
    await expect(page.getByText('Coming soon')).toHaveCount(0);
    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(3);
    await screenshotsAtBothWidths(page, 'security-user');

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('Every other device was signed out.')).toBeVisible();
    for (const ctx of others) {
      expect((await ctx.get('/api/v1/auth/session')).status()).toBe(401);
      await ctx.dispose();
    }
  });
});
