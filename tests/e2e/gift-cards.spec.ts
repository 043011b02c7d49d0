import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations, logInViaApi, registerViaApi } from './support';

async function createCard(page: Page, amount: string, colourName: string) {
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('button', { name: `Colour ${colourName}` }).click();
  await page.getByRole('button', { name: 'Create Card' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Gift card created successfully!');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByLabel('Amount')).toHaveValue('');
}

function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test.describe('a business sells gift cards', () => {
  test('creates three cards, sees them in the list, and stops selling one', async ({ page }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaApi(page, 'business', input.email);
    await page.goto('/dashboard/giftcard');
    await expect(page.getByRole('tab', { name: 'New Gift Card' })).toHaveAttribute('aria-selected', 'true');

    const create = page.getByRole('button', { name: 'Create Card' });
    await expect(create).toBeDisabled();
    await page.getByLabel('Amount').fill('0');
    await page.getByRole('button', { name: 'Colour #0f766e' }).click();
    await expect(create).toBeDisabled();
    await page.getByLabel('Amount').fill('2500');
    await expect(create).toBeEnabled();
    await page.getByLabel('Amount').fill('');

    await createCard(page, '5000', '#fef3c7');
    await createCard(page, '12500.50', '#111827');
    await createCard(page, '999.99', '#0f766e');

    await page.getByRole('tab', { name: 'Gift Cards' }).click();
    const list = page.getByRole('list', { name: 'Your gift cards' });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect(list.getByRole('listitem').nth(0)).toContainText('₦999.99');
    await expect(list.getByRole('listitem').nth(1)).toContainText('₦12,500.50');
    await expect(list.getByRole('listitem').nth(2)).toContainText('₦5,000.00');
    await expect(list.getByText(/^[A-Z0-9]{3}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)).toHaveCount(3);

    await list
      .getByRole('button', { name: /^Stop selling/ })
      .first()
      .click();
    await expect(list.getByText('Stopped')).toHaveCount(1);
    const catalogue = await page.request.get(
      `/api/v1/gift-cards?businessId=${(await page.request.get('/api/v1/auth/session').then((r) => r.json())).account.id}`,
    );
    expect((await catalogue.json()).items).toHaveLength(2);
    await expectNoSeriousA11yViolations(page);
  });

  test('a card may have a validity: No expiry by default, or chosen in months; the list shows it', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaApi(page, 'business', input.email);
    await page.goto('/dashboard/giftcard');
    await expect(page.getByLabel('Validity')).toHaveValue('');
    await expect(page.getByLabel('Validity').locator('option:checked')).toHaveText('No expiry');
    await createCard(page, '3000', '#4f46e5');
    await page.getByLabel('Validity').selectOption({ label: '12 months' });
    await createCard(page, '4000', '#4f46e5');
    await expect(page.getByLabel('Validity')).toHaveValue('');

    await page.getByRole('tab', { name: 'Gift Cards' }).click();
    const list = page.getByRole('list', { name: 'Your gift cards' });
    await expect(list.getByRole('listitem').nth(0)).toContainText('Valid 12 months');
    await expect(list.getByRole('listitem').nth(1)).not.toContainText('Valid');
    const session = await (await page.request.get('/api/v1/auth/session')).json();
    const own = await (await page.request.get(`/api/v1/businesses/${session.account.id}/gift-cards`)).json();
    expect(own.items.map((card: { validityMonths: number | null }) => card.validityMonths)).toEqual([
      12,
      null,
    ]);
  });

  test('an empty list says so and offers to create the first card', async ({ page }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaApi(page, 'business', input.email);
    await page.goto('/dashboard/giftcard?tab=list');
    await expect(page.getByText('No gift cards yet')).toBeVisible();
    await page.getByRole('button', { name: 'Create your first card' }).click();
    await expect(page.getByRole('tab', { name: 'New Gift Card' })).toHaveAttribute('aria-selected', 'true');
  });

  test('tile text stays readable on a very light and a very dark colour', async ({ page }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaApi(page, 'business', input.email);
    const origin = new URL(page.url()).origin;
    for (const colour of ['#ffffff', '#fefce8', '#000000', '#0b1020']) {
      const res = await page.request.post('/api/v1/gift-cards', {
        data: { amount: 100000, colour },
        headers: { origin },
      });
      expect(res.status()).toBe(201);
    }
    await page.goto('/dashboard/giftcard?tab=list');
    const tiles = page.getByRole('list', { name: 'Your gift cards' }).getByRole('listitem');
    await expect(tiles).toHaveCount(4);
    for (let i = 0; i < 4; i += 1) {
      const amount = tiles.nth(i).getByText('₦1,000.00');
      const [text, background] = await amount.evaluate((el) => {
        const tile = el.closest('[style*="background"]') as HTMLElement;
        return [getComputedStyle(el).color, getComputedStyle(tile).backgroundColor];
      });
      const [hi, lo] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
      expect((hi + 0.05) / (lo + 0.05), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: 'test-results/tiles-light-and-dark.png', fullPage: true });
  });
});

test.describe('the business logo', () => {
  test('a PNG logo shows on the form, the tiles and the Account page; a refused file keeps it', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaApi(page, 'business', input.email);
    const origin = new URL(page.url()).origin;
    await page.request.post('/api/v1/gift-cards', {
      data: { amount: 500000, colour: '#4f46e5' },
      headers: { origin },
    });

    await page.goto('/dashboard/account');
    await expect(page.getByRole('img', { name: 'No logo yet' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Update company logo' })).toBeDisabled();
    const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#e11d48' } })
      .png()
      .toBuffer();
    await page
      .getByLabel(/Company logo/)
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByRole('img', { name: 'Preview of the chosen logo' })).toBeVisible();
    await page.getByRole('button', { name: 'Update company logo' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('image uploaded SUCCESSFULLY.');
    await dialog.getByRole('button', { name: 'Okay!' }).click();
    const logo = page.getByRole('img', { name: `${input.name} logo` }).first();
    await expect(logo).toHaveAttribute('src', /^\/uploads\/[0-9a-f-]{36}\.png$/);
    const src = await logo.getAttribute('src');

    await page
      .getByLabel(/Company logo/)
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text') });
    await page.getByRole('button', { name: 'Update company logo' }).click();
    await expect(page.getByRole('dialog')).toContainText('The logo must be a PNG, JPEG or WebP image.');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    const session = await (await page.request.get('/api/v1/auth/session')).json();
    expect(session.account.logoUrl).toBe(src);

    await page.goto('/dashboard/giftcard');
    await expect(page.getByRole('img', { name: `${input.name} logo` })).toHaveAttribute('src', src!);
    await page.goto('/dashboard/giftcard?tab=list');
    await expect(
      page.getByRole('list', { name: 'Your gift cards' }).locator(`img[src="${src}"]`),
    ).toHaveCount(1);
  });
});
