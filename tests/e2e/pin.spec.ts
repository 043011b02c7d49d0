import { expect, test, type Page } from '@playwright/test';
import { pinMessages } from '../../src/shared/wallet/pin';
import { DEFAULT_PASSWORD, expectNoSeriousA11yViolations, logInViaForm, registerViaApi } from './support';

function pendingItem(page: Page) {
  return page.getByRole('link', { name: /Set transaction pin/ });
}

async function closeSuccess(page: Page, title: string) {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
}

test.describe('transaction PIN', () => {
  test('a business sets its PIN from the Pending item (weak and mismatched PINs are refused) and sees DONE', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    await expect(pendingItem(page)).toContainText('PENDING');
    await pendingItem(page).click();
    await expect(page).toHaveURL(/\/dashboard\/account\?tab=security&pin=create$/);
    await expect(page.getByRole('tab', { name: 'Security' })).toHaveAttribute('aria-selected', 'true');

    const form = page.getByRole('dialog', { name: 'Create transaction PIN' });
    await expect(form).toBeVisible();
    const pin = form.getByLabel('New PIN');
    const confirm = form.getByLabel('Confirm PIN');
    await expect(pin).toBeFocused();
    for (const field of [pin, confirm]) {
      await expect(field).toHaveAttribute('type', 'password');
      await expect(field).toHaveAttribute('inputmode', 'numeric');
      await expect(field).toHaveAttribute('maxlength', '4');
      await expect(field).toHaveAttribute('autocomplete', 'off');
    }
    await expectNoSeriousA11yViolations(page);

    await pin.fill('1234');
    await confirm.fill('1234');
    await form.getByRole('button', { name: 'Create PIN' }).click();
    await expect(form.getByText(pinMessages.weak)).toBeVisible();
    await expect(pin).toHaveAttribute('aria-invalid', 'true');

    await pin.fill('2580');
    await confirm.fill('2581');
    await form.getByRole('button', { name: 'Create PIN' }).click();
    await expect(form.getByText(pinMessages.confirm)).toBeVisible();
    expect((await (await page.request.get('/api/v1/wallet/pin')).json()).set).toBe(false);

    await confirm.fill('2580');
    await form.getByRole('button', { name: 'Create PIN' }).click();
    await closeSuccess(page, 'Transaction PIN created');
    await expect(form).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard\/account\?tab=security$/);
    await expect(page.getByRole('button', { name: /Change Transaction PIN/ })).toBeVisible();
    // Every security row works now (issue 12): nothing is "Coming soon".
    await expect(page.getByText('Coming soon')).toHaveCount(0);

    await page
      .getByRole('navigation', { name: 'Business dashboard' })
      .getByRole('link', { name: 'Home' })
      .click();
    await expect(pendingItem(page)).toContainText('DONE');
    await expect(page.getByRole('link', { name: /Add default bank/ })).toContainText('PENDING');
  });

  test('a business changes its PIN from Account → Security with the current PIN, then with its password', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    const created = await page.request.post('/api/v1/wallet/pin', {
      data: { pin: '2580', confirmPin: '2580' },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page
      .getByRole('navigation', { name: 'Business dashboard' })
      .getByRole('link', { name: 'Account' })
      .click();
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: /Change Transaction PIN/ }).click();
    const form = page.getByRole('dialog', { name: 'Change transaction PIN' });
    await expect(form).toBeVisible();
    await expect(form.getByLabel('Current PIN')).toBeFocused();

    // A wrong current PIN: said in words, with the tries left.
    await form.getByLabel('Current PIN').fill('1470');
    await form.getByLabel('New PIN').fill('1357');
    await form.getByLabel('Confirm PIN').fill('1357');
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await expect(
      form.getByText('Wrong PIN. 4 tries left before withdrawals lock for 15 minutes.'),
    ).toBeVisible();

    // A weak new PIN.
    await form.getByLabel('Current PIN').fill('2580');
    await form.getByLabel('New PIN').fill('9876');
    await form.getByLabel('Confirm PIN').fill('9876');
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await expect(form.getByText(pinMessages.weak)).toBeVisible();

    await form.getByLabel('New PIN').fill('1357');
    await form.getByLabel('Confirm PIN').fill('1357');
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await closeSuccess(page, 'Transaction PIN changed');
    await expect(form).toBeHidden();
    expect((await (await page.request.get('/api/v1/wallet/pin')).json()).attemptsLeft).toBe(5);

    // Escape closes the form without changing anything.
    await page.getByRole('button', { name: /Change Transaction PIN/ }).click();
    await expect(form).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();

    // Forgot the PIN: the account password instead.
    await page.getByRole('button', { name: /Change Transaction PIN/ }).click();
    await form.getByRole('button', { name: /Use your account password/ }).click();
    await expect(form.getByLabel('Current PIN')).toHaveCount(0);
    await form.getByLabel('Account password').fill('not-my-password-1');
    await form.getByLabel('New PIN').fill('4826');
    await form.getByLabel('Confirm PIN').fill('4826');
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await expect(form.getByText('That password is not correct.')).toBeVisible();
    await form.getByLabel('Account password').fill(DEFAULT_PASSWORD);
    await form.getByRole('button', { name: 'Change PIN' }).click();
    await closeSuccess(page, 'Transaction PIN changed');

    // The new PIN is the one in use: the old one is now wrong.
    const check = await page.request.put('/api/v1/wallet/pin', {
      data: { currentPin: '1357', newPin: '5937', confirmPin: '5937' },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(check.status()).toBe(403);
    const ok = await page.request.put('/api/v1/wallet/pin', {
      data: { currentPin: '4826', newPin: '5937', confirmPin: '5937' },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(ok.status(), await ok.text()).toBe(200);
  });
});
