import { expect, test } from '@playwright/test';
import {
  sandboxAccountName,
  SANDBOX_UNKNOWN_ACCOUNT,
} from '../../src/server/modules/wallet/payouts/sandbox-payouts';
import { makeNuban } from '../../src/shared/wallet/banks';
import { expectNoSeriousA11yViolations, logInViaForm, registerViaApi } from './support';

function randomSerial(): string {
  return String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
}

test.describe('bank accounts', () => {
  test('Home → Add default bank opens the dialog; the verified account becomes the default and Pending shows DONE', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);

    // Without a transaction PIN, where payouts go cannot be changed: the dialog says to create one first.
    await page.goto('/dashboard/wallet?add-bank=1');
    const noPin = page.getByRole('dialog', { name: 'Add New bank account' });
    await expect(noPin.getByText('Set your transaction PIN first')).toBeVisible();
    await noPin.getByRole('button', { name: 'Cancel' }).click();
    const origin = new URL(page.url()).origin;
    const created = await page.request.post('/api/v1/wallet/pin', {
      data: { pin: '2580', confirmPin: '2580' },
      headers: { origin },
    });
    expect(created.status()).toBe(201);
    await page.goto('/dashboard');

    const pendingBank = page.getByRole('link', { name: /Add default bank/ });
    await expect(pendingBank).toContainText('PENDING');
    await pendingBank.click();
    await expect(page).toHaveURL(/\/dashboard\/wallet\?add-bank=1$/);

    const dialog = page.getByRole('dialog', { name: 'Add New bank account' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const number = makeNuban('058', randomSerial());
    const name = sandboxAccountName(number);
    await dialog.getByLabel('Bank').selectOption({ label: 'Guaranty Trust Bank' });
    await dialog.getByLabel('Account number').fill(number);
    await dialog.getByRole('button', { name: 'Verify account' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Is this your account?${name}`);
    await dialog.getByLabel('Transaction PIN').fill('2580');
    await dialog.getByRole('button', { name: 'Save bank account' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard\/wallet$/);

    const defaultSection = page.getByRole('region', { name: 'Default Bank Account' });
    await expect(defaultSection).toContainText('Guaranty Trust Bank');
    await expect(defaultSection).toContainText(`•••••• ${number.slice(-4)}`);
    await expect(defaultSection).toContainText(name);
    await expect(page.getByRole('region', { name: 'Other Bank Accounts' })).toContainText(
      'No other bank accounts',
    );

    // A second account goes to "Other Bank Accounts" and can be made the default.
    const second = makeNuban('057', randomSerial());
    await page.getByRole('button', { name: 'Add New bank account' }).click();
    await dialog.getByLabel('Bank').selectOption({ label: 'Zenith Bank' });
    await dialog.getByLabel('Account number').fill(second);
    await dialog.getByRole('button', { name: 'Verify account' }).click();
    await expect(dialog.getByRole('status')).toContainText(sandboxAccountName(second));
    await dialog.getByLabel('Transaction PIN').fill('2580');
    await dialog.getByRole('button', { name: 'Save bank account' }).click();
    await expect(dialog).toBeHidden();
    const others = page.getByRole('region', { name: 'Other Bank Accounts' });
    await expect(others).toContainText('Zenith Bank');
    await others
      .getByRole('button', { name: `Make default: Zenith Bank account ending ${second.slice(-4)}` })
      .click();
    const confirm = page.getByRole('dialog', { name: /Make this Zenith Bank account your default/ });
    await confirm.getByRole('textbox', { name: 'Transaction PIN' }).fill('2580');
    await confirm.getByRole('button', { name: 'Make default' }).click();
    await expect(defaultSection).toContainText('Zenith Bank');
    await expect(others).toContainText('Guaranty Trust Bank');
    await expectNoSeriousA11yViolations(page);

    await page
      .getByRole('navigation', { name: 'Business dashboard' })
      .getByRole('link', { name: 'Home' })
      .click();
    await expect(page.getByRole('link', { name: /Add default bank/ })).toContainText('DONE');
  });

  test('an invalid NUBAN shows its message without a request; the sandbox unknown account shows its message', async ({
    page,
  }) => {
    const input = await registerViaApi(page, 'business');
    await logInViaForm(page, 'business', input.email);
    await page.goto('/dashboard/wallet');
    await page.getByRole('button', { name: 'Add New bank account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New bank account' });
    await expect(dialog).toBeVisible();

    const resolveRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/bank-accounts')) resolveRequests.push(request.url());
    });

    const good = makeNuban('057', '123456789');
    const bad = `${good.slice(0, 9)}${(Number(good[9]) + 1) % 10}`;
    await dialog.getByLabel('Bank').selectOption({ label: 'Zenith Bank' });
    await dialog.getByLabel('Account number').fill(bad);
    await dialog.getByRole('button', { name: 'Verify account' }).click();
    await expect(
      dialog.getByText('That account number is not valid for Zenith Bank. Check the 10 digits.'),
    ).toBeVisible();
    await expect(dialog.getByLabel('Account number')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Account number').fill('12345');
    await dialog.getByRole('button', { name: 'Verify account' }).click();
    await expect(dialog.getByText('An account number is exactly 10 digits.')).toBeVisible();
    expect(resolveRequests).toEqual([]);

    await dialog.getByLabel('Bank').selectOption({ label: 'Guaranty Trust Bank' });
    await dialog.getByLabel('Account number').fill(SANDBOX_UNKNOWN_ACCOUNT);
    await dialog.getByRole('button', { name: 'Verify account' }).click();
    await expect(dialog.getByText('We could not find that account at Guaranty Trust Bank.')).toBeVisible();
    expect(resolveRequests).toHaveLength(1);
    await expect(dialog.getByRole('button', { name: 'Save bank account' })).toHaveCount(0);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Default Bank Account' })).toContainText(
      'No bank account yet',
    );
  });
});
