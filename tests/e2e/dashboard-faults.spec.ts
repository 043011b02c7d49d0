import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeNuban } from '../../src/shared/wallet/banks';
import { expectNoSeriousA11yViolations, logInViaForm, registerViaApi } from './support';

/**
 * The faults a new user met in the dashboards (issue 13): the New Gift Card amount, the sidebar's white
 * column on tall pages, the stock SweetAlert2 dialogs, and /support for visitors. Screenshots at 1280 and
 * 375 px go to E2E_SCREENSHOTS (or the test output).
 */
async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  const dir = process.env.E2E_SCREENSHOTS ?? test.info().outputPath('shots');
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage });
}

/** The page scrolls no wider than the screen (nothing runs off a phone). */
async function expectNoSideways(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The computed value of a CSS property on an element holding these classes, for comparing with the app. */
async function styleOfClasses(page: Page, classes: string, property: string): Promise<string> {
  return page.evaluate(
    ([className, name]) => {
      const probe = document.createElement('span');
      probe.className = className!;
      document.body.append(probe);
      const value = getComputedStyle(probe).getPropertyValue(name!);
      probe.remove();
      return value;
    },
    [classes, property],
  );
}

const style = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

// Each journey logs in, and a busy machine can make one take more than the default minute.
test.beforeEach(() => test.slow());

test.describe('New Gift Card amount', () => {
  for (const width of [1280, 375]) {
    test(`an amount error clears once corrected; ₦5,000,000 previews as typed; ₦1,000,000 is the largest (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const input = await registerViaApi(page, 'business');
      await logInViaForm(page, 'business', input.email);
      await page.goto('/dashboard/giftcard');
      const amount = page.getByLabel('Amount');
      const form = page.locator('form').filter({ has: amount });
      const preview = page.getByText('Preview', { exact: true }).locator('..');

      // Three decimals: Create Card says why, under the field.
      await amount.fill('5000.555');
      await page.getByRole('button', { name: 'Colour #0f766e' }).click();
      await page.getByRole('button', { name: 'Create Card' }).click();
      await expect(form.getByRole('alert')).toHaveText('an amount has at most 2 decimal places');
      await expect(amount).toHaveAttribute('aria-invalid', 'true');
      await screenshot(page, 'card-amount-error');

      // Corrected: the error goes at once, and the preview follows.
      await amount.fill('5000.55');
      await expect(form.getByRole('alert')).toHaveCount(0);
      await expect(amount).not.toHaveAttribute('aria-invalid');
      await expect(preview).toContainText('₦5,000.55');

      // Five million, typed the way people write it: the preview shows it, the field says the limit.
      await amount.fill('5,000,000');
      await expect(preview).toContainText('₦5,000,000.00');
      await expect(preview).not.toContainText('₦0.00');
      await expect(form.getByRole('alert')).toHaveText('the amount can be at most ₦1,000,000.00');
      await expectNoSideways(page);
      await screenshot(page, 'card-amount-too-large');
      await amount.fill('5000000');
      await expect(preview).toContainText('₦5,000,000.00');

      // The largest allowed amount previews and is created.
      await amount.fill('1,000,000');
      await expect(form.getByRole('alert')).toHaveCount(0);
      await expect(preview).toContainText('₦1,000,000.00');
      await page.getByRole('button', { name: 'Create Card' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('Gift card created successfully!');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.getByRole('tab', { name: 'Gift Cards' }).click();
      await expect(page.getByRole('list', { name: 'Your gift cards' })).toContainText('₦1,000,000.00');
      await expectNoSeriousA11yViolations(page);
    });
  }
});

test.describe('dashboard sidebar', () => {
  for (const width of [1280, 900]) {
    test(`its white column runs the full height of a tall page at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      const input = await registerViaApi(page, 'business');
      await logInViaForm(page, 'business', input.email);
      await page.goto('/dashboard/support');
      await expect(page.getByRole('heading', { name: 'Customer Support' })).toBeVisible();
      // However tall the content: 4,000 px more of it.
      await page.evaluate(() => {
        const tall = document.createElement('div');
        tall.style.height = '4000px';
        tall.setAttribute('data-testid', 'tall-content');
        document.getElementById('main-content')?.append(tall);
      });
      await page.evaluate(() =>
        window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
      );
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(3000);

      const nav = page.getByRole('navigation', { name: 'Business dashboard' });
      const measured = await nav.evaluate((element) => {
        const aside = element.closest('aside')!;
        const column = aside.parentElement!;
        const doc = document.documentElement;
        const box = column.getBoundingClientRect();
        // What is drawn at the sidebar's bottom-left corner of the screen, and the first background under it.
        let under: Element | null = document.elementFromPoint(5, window.innerHeight - 5);
        let background = 'none';
        while (under) {
          const colour = getComputedStyle(under).backgroundColor;
          if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') {
            background = colour;
            break;
          }
          under = under.parentElement;
        }
        return {
          columnHeight: column.offsetHeight,
          documentHeight: doc.scrollHeight,
          columnBottom: box.bottom,
          viewport: window.innerHeight,
          asideTop: aside.getBoundingClientRect().top,
          asideBottom: aside.getBoundingClientRect().bottom,
          columnBackground: getComputedStyle(column).backgroundColor,
          background,
          coversCorner: column.contains(document.elementFromPoint(5, window.innerHeight - 5)),
        };
      });
      expect(measured.columnHeight).toBeGreaterThanOrEqual(measured.documentHeight);
      expect(measured.columnBottom).toBeGreaterThanOrEqual(measured.viewport);
      expect(measured.coversCorner).toBe(true);
      expect(measured.background).toBe(measured.columnBackground);
      expect(measured.background).toBe('rgb(255, 255, 255)');
      // The menu itself stays in view: top to bottom of the screen at the page's end.
      expect(measured.asideTop).toBe(0);
      expect(measured.asideBottom).toBe(measured.viewport);
      await expect(nav.getByRole('link', { name: 'Home' })).toBeInViewport();
      await screenshot(page, 'sidebar-tall-page-bottom', { fullPage: false });
    });
  }
});

test.describe('dialogs wear the product look', () => {
  for (const width of [1280, 375]) {
    test(`an error dialog: rounded-2xl white panel, app font and type, the product's primary button (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const input = await registerViaApi(page, 'business');
      await page.goto('/business/login');
      await page.getByLabel('Email').fill(input.email);
      await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
      await page.getByLabel('Remember me').check();
      // The page's own primary button, before the dialog makes the page behind it inert: the app's, once it
      // has drawn over the pre-rendered form (whose button is disabled until then).
      const primary = page.getByRole('button', { name: 'Log in' });
      await expect(primary).toBeEnabled();
      const properties = [
        'background-color',
        'color',
        'border-top-left-radius',
        'font-weight',
        'padding-left',
      ];
      const primaryStyle = await primary.evaluate(
        (element, names) => names.map((name) => getComputedStyle(element).getPropertyValue(name)),
        properties,
      );
      await primary.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Login failed' })).toBeVisible();
      await expect(dialog).toContainText('email or password incorrect');
      // Let the show animation finish (it scales the panel).
      await expect.poll(() => style(dialog, 'transform')).toBe('none');
      await screenshot(page, 'dialog-error', { fullPage: false });

      expect(await style(dialog, 'border-top-left-radius')).toBe('16px');
      expect(await style(dialog, 'background-color')).toBe('rgb(255, 255, 255)');
      expect(await style(dialog, 'font-family')).toBe(
        await page.evaluate(() => getComputedStyle(document.body).fontFamily),
      );
      const title = dialog.getByRole('heading', { name: 'Login failed' });
      expect(await style(title, 'color')).toBe(await styleOfClasses(page, 'text-slate-900', 'color'));
      expect(await style(title, 'font-weight')).toBe('700');
      expect(await style(dialog.getByText('email or password incorrect'), 'color')).toBe(
        await styleOfClasses(page, 'text-slate-600', 'color'),
      );

      // The OK button is the product's primary button: indigo, rounded-lg, semibold, no SweetAlert2 styling.
      const ok = dialog.getByRole('button', { name: 'OK' });
      await expect(ok).not.toHaveClass(/swal2-styled/);
      for (const [index, property] of properties.entries()) {
        expect(await style(ok, property), property).toBe(primaryStyle[index]);
      }
      expect(await style(ok, 'background-color')).toBe(
        await styleOfClasses(page, 'bg-brand-600', 'background-color'),
      );
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await ok.click();
      await expect(dialog).toBeHidden();
    });
  }

  test('a dangerous confirmation uses the red danger button, starts on Cancel, and Cancel is the secondary button', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    const origin = new URL(page.url()).origin;
    const headers = { origin };
    expect(
      (
        await page.request.post('/api/v1/wallet/pin', { data: { pin: '2580', confirmPin: '2580' }, headers })
      ).status(),
    ).toBe(201);
    const accountNumber = makeNuban('058', String(Math.floor(Math.random() * 1e9)).padStart(9, '0'));
    const resolved = await page.request.post('/api/v1/bank-accounts/resolve', {
      data: { bankCode: '058', accountNumber },
      headers,
    });
    expect(resolved.status(), await resolved.text()).toBe(200);
    const { accountName } = (await resolved.json()) as { accountName: string };
    const added = await page.request.post('/api/v1/bank-accounts', {
      data: { bankCode: '058', accountNumber, accountName, pin: '2580' },
      headers,
    });
    expect(added.status(), await added.text()).toBe(201);

    await page.goto('/dashboard/wallet');
    await page
      .getByRole('button', { name: /^Remove/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /Remove this Guaranty Trust Bank account/ });
    await expect(dialog).toBeVisible();
    await expect.poll(() => style(dialog, 'transform')).toBe('none');
    const remove = dialog.getByRole('button', { name: 'Remove' });
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    await expect(cancel).toBeFocused();
    expect(await style(remove, 'background-color')).toBe(
      await styleOfClasses(page, 'bg-red-600', 'background-color'),
    );
    expect(await style(remove, 'color')).toBe('rgb(255, 255, 255)');
    expect(await style(cancel, 'background-color')).toBe('rgb(255, 255, 255)');
    expect(await style(cancel, 'border-top-color')).toBe(
      await styleOfClasses(page, 'border-slate-300', 'border-top-color'),
    );
    // Cancel on the left, the action on the right, like the product's own dialogs.
    expect((await cancel.boundingBox())!.x).toBeLessThan((await remove.boundingBox())!.x);
    await screenshot(page, 'dialog-danger', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 800 });
    // On a phone the buttons stack, the action on top.
    await expect
      .poll(async () => (await remove.boundingBox())!.y < (await cancel.boundingBox())!.y)
      .toBe(true);
    await screenshot(page, 'dialog-danger', { fullPage: false });
    await cancel.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(accountName).first()).toBeVisible();
  });
});

test.describe('public support page', () => {
  for (const width of [1280, 375]) {
    test(`a visitor who is not logged in reaches /support from the footers (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/faqs');
      await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Support' }).click();
      await expect(page).toHaveURL(/\/support$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Customer Support' })).toBeVisible();
      const email = page.getByRole('link', { name: 'Send us an email' });
      await expect(email).toHaveAttribute('href', /^mailto:.+@.+/);
      for (const [name, href] of [
        ['FAQs', '/faqs'],
        ['Check a balance', '/balance'],
        ['Terms', '/terms'],
      ] as const) {
        await expect(page.getByRole('main').getByRole('link', { name, exact: true })).toHaveAttribute(
          'href',
          href,
        );
      }
      await expect(page.getByText('Page not found')).toHaveCount(0);
      await expectNoSideways(page);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, 'public-support');

      // The landing page's footer leads there too; FAQs and Terms are public.
      await page.goto('/');
      await page.locator('footer').getByRole('link', { name: 'Customer support' }).click();
      await expect(page).toHaveURL(/\/support$/);
      for (const address of ['/faqs', '/terms']) {
        await page.goto(address);
        await expect(page).toHaveURL(new RegExp(`${address}$`));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      }
    });
  }

  test('the dashboards keep their own Support screen inside their shell', async ({ page }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    await page.goto('/dashboard/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Customer Support' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Business dashboard' })).toBeVisible();
    // Signed in, /support is the public page (no dashboard shell) and still answers.
    await page.goto('/support');
    await expect(page.getByRole('heading', { level: 1, name: 'Customer Support' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Business dashboard' })).toHaveCount(0);
  });
});
