import { expect, test } from '@playwright/test';
import {
  businessInput,
  holdAppCode,
  DEFAULT_PASSWORD,
  logInViaForm,
  registerViaApi,
  spinnerSeen,
  timerBarTransition,
  userInput,
  watchForSpinners,
  watchTimerBars,
} from './support';

test.describe('registration', () => {
  test('a user registers, sees the 1-second success message, and lands on /login', async ({ page }) => {
    const input = userInput();
    await watchTimerBars(page);
    await page.goto('/register');
    await page.getByLabel('Full name').fill(input.name);
    await page.getByLabel('Username').fill(input.username);
    await page.getByLabel('Email').fill(input.email);
    await page.getByLabel('Phone number').fill('0803 123 4567');
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Registration successful');
    await expect.poll(() => timerBarTransition(page)).toBe('width 1s linear');
    await expect(page).toHaveURL(/\/login$/, { timeout: 3000 });
    await expect(dialog).toBeHidden();
  });

  test('a business registers and lands on /business/login', async ({ page }) => {
    const input = businessInput();
    await page.goto('/business/register');
    await page.getByLabel('Business name').fill(input.name);
    await page.getByLabel('Business e-mail').fill(input.email);
    await page.getByLabel('Phone number').fill('+234 812 345 6789');
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await page.getByLabel(/terms and privacy policy/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('dialog')).toContainText('Registration successful');
    await expect(page).toHaveURL(/\/business\/login$/, { timeout: 3000 });
  });

  test('empty fields show the seed messages before anything is sent', async ({ page }) => {
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/')) posted = true;
    });
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    for (const message of [
      'please enter a name',
      'please enter a username',
      'please enter an email',
      'please your phone number',
      'please enter a password',
      'please confirm your password',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.getByLabel('Password', { exact: true }).fill('one-password');
    await page.getByLabel('Confirm password').fill('another-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('passwords must match')).toBeVisible();
    expect(posted).toBe(false);
  });

  test("the server's refusal is shown: an email already taken", async ({ page }) => {
    const existing = await registerViaApi(page, 'business');
    const input = userInput({ email: existing.email });
    await page.goto('/register');
    await page.getByLabel('Full name').fill(input.name);
    await page.getByLabel('Username').fill(input.username);
    await page.getByLabel('Email').fill(input.email);
    await page.getByLabel('Phone number').fill(input.phoneNumber);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Confirm password').fill(DEFAULT_PASSWORD);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Registration failed');
    await expect(dialog).toContainText('An account with this email already exists.');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/register$/);
  });
});

test.describe('login', () => {
  test('a user logs in with a username; the dialog shows for a second with a progress bar', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'user');
    await watchTimerBars(page);
    await page.goto('/login');
    await expect(page.getByLabel('Email or username')).toHaveAttribute('placeholder', 'email or username');
    await page.getByLabel('Email or username').fill(input.username);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Login successful, Taking you to your dashboard');
    await expect.poll(() => timerBarTransition(page)).toBe('width 1s linear');
    await expect(page).toHaveURL(/\/user-dashboard$/, { timeout: 3000 });
    const stored = await page.evaluate(() => localStorage.getItem('persist:giftmart'));
    expect(JSON.parse(stored!)).toMatchObject({
      version: 1,
      state: { userData: { email: input.email }, bizClient: null },
    });
    expect(stored).not.toMatch(/token|password/i);
  });

  test('a business must tick "Remember me" and then reaches /dashboard', async ({ page }) => {
    const input = await registerViaApi(page, 'business');
    await page.goto('/business/login');
    await page.getByLabel('Email').fill(input.email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('please tick Remember me to continue')).toBeVisible();
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 3000 });
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'giftmart_session');
    expect(session?.httpOnly).toBe(true);
    expect(session!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
  });

  test('a wrong password opens the "Login failed" dialog', async ({ page }) => {
    const input = await registerViaApi(page, 'user');
    await page.goto('/login');
    await page.getByLabel('Email or username').fill(input.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Login failed' })).toBeVisible();
    await expect(dialog).toContainText('email or password incorrect');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('the pre-rendered forms', () => {
  for (const role of ['user', 'business'] as const) {
    test(`the ${role}'s log-in form is there before its code, keeps what was typed, and then logs in`, async ({
      page,
    }) => {
      const input = await registerViaApi(page, role);
      // Hold the app's code: the form on screen is the build's HTML.
      const release = await holdAppCode(page);
      await page.goto(role === 'business' ? '/business/login' : '/login', { waitUntil: 'commit' });
      const email = page.getByLabel(role === 'business' ? 'Email' : 'Email or username');
      const password = page.getByLabel('Password', { exact: true });
      await expect(email).toBeVisible();
      // Only the app sends the form: the browser on its own would put the password in the address.
      await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
      await page.locator('#root form').evaluate((form) => form.setAttribute('data-built', ''));
      await email.fill(input.email);
      if (role === 'business') await page.getByLabel('Remember me').check();
      await password.fill(DEFAULT_PASSWORD);

      release();
      await expect(page.locator('#root form[data-built]')).toHaveCount(0, { timeout: 15_000 });
      await expect(email).toHaveValue(input.email);
      await expect(password).toHaveValue(DEFAULT_PASSWORD);
      if (role === 'business') await expect(page.getByLabel('Remember me')).toBeChecked();
      await expect(password).toBeFocused();
      await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
      await password.press('Enter');
      await expect(page).toHaveURL(role === 'business' ? /\/dashboard$/ : /\/user-dashboard$/);
    });
  }
});

test.describe('a pre-rendered form whose screen is slow to come', () => {
  test('stays on screen, with no spinner in its place, until its code is here, and keeps what was typed', async ({
    page,
  }) => {
    // Past the 3 seconds after which the app stops waiting for a screen over the plain loading screen.
    await watchForSpinners(page, '#root .animate-spin');
    await page.route(/\/assets\/user-login-page-[^/]*\.js$/, async (route) => {
      await new Promise((done) => setTimeout(done, 4_000));
      await route.continue();
    });
    await page.goto('/login');
    await page.locator('#root form').evaluate((form) => form.setAttribute('data-built', ''));
    const email = page.getByLabel('Email or username');
    await email.fill('slow@example.test');
    await expect(page.locator('#root form[data-built]')).toHaveCount(0, { timeout: 15_000 });
    await expect(email).toHaveValue('slow@example.test');
    expect(await spinnerSeen(page)).toBe(false);
  });
});

test.describe('guards', () => {
  test('signed out: a protected screen sends you to its login, replacing the history entry, and back after it', async ({
    page,
  }) => {
    await page.goto('/select-account');
    await page.goto('/dashboard/wallet');
    await expect(page).toHaveURL(/\/business\/login\?next=%2Fdashboard%2Fwallet$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/select-account$/);
    await page.goto('/user-dashboard/mycards?tab=all');
    await expect(page).toHaveURL(/\/login\?next=%2Fuser-dashboard%2Fmycards%3Ftab%3Dall$/);

    const input = await registerViaApi(page, 'business');
    await page.goto('/dashboard/wallet');
    await expect(page.getByRole('heading', { name: 'Business login' })).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(input.email);
    await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard\/wallet$/);
  });

  test('signed in: the public area sends a business to /dashboard and a user to /user-dashboard', async ({
    browser,
  }) => {
    for (const role of ['business', 'user'] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const input = await registerViaApi(page, role);
      await logInViaForm(page, role, input.email);
      const home = role === 'business' ? /\/dashboard$/ : /\/user-dashboard$/;
      await page.goto('/select-account');
      await page.goto('/');
      await expect(page).toHaveURL(home);
      await page.goto('/register');
      await expect(page).toHaveURL(home);
      await page.goBack();
      await expect(page).toHaveURL(home); // /select-account was replaced, not pushed over
      await context.close();
    }
  });

  test('the server is the truth: a revoked session clears the stored profile and goes to /', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    const baseURL = new URL(page.url()).origin;
    // The dashboard is left first: a live dashboard can itself notice the revoked session (its notification
    // stream reconnects and gets a 401) and clear the profile before the reload below, which then opens
    // signed out and goes to the login. This journey is about the reload finding it out from the server.
    await page.goto('about:blank');
    const revoked = await page.request.delete('/api/v1/auth/session', { headers: { origin: baseURL } });
    expect(revoked.status()).toBe(204);
    await page.goto('/dashboard/account');
    await expect(page).toHaveURL(/\/$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('persist:giftmart') ?? '{}'));
    expect(stored.state.bizClient).toBeNull();
  });
});
