/**
 * Nigerian banks (name and CBN/NIBSS code, as Paystack lists them). Traditional banks have 3-digit CBN
 * codes, which the NUBAN check digit covers; microfinance and mobile-money institutions have longer codes.
 */
export interface Bank {
  code: string;
  name: string;
}

export const NIGERIAN_BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '023', name: 'Citibank Nigeria' },
  { code: '050', name: 'Ecobank Nigeria' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank of Nigeria' },
  { code: '214', name: 'First City Monument Bank' },
  { code: '103', name: 'Globus Bank' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '030', name: 'Heritage Bank' },
  { code: '301', name: 'Jaiz Bank' },
  { code: '082', name: 'Keystone Bank' },
  { code: '50211', name: 'Kuda Bank' },
  { code: '50515', name: 'Moniepoint MFB' },
  { code: '999992', name: 'OPay' },
  { code: '999991', name: 'PalmPay' },
  { code: '076', name: 'Polaris Bank' },
  { code: '101', name: 'Providus Bank' },
  { code: '221', name: 'Stanbic IBTC Bank' },
  { code: '068', name: 'Standard Chartered Bank' },
  { code: '232', name: 'Sterling Bank' },
  { code: '100', name: 'SunTrust Bank' },
  { code: '102', name: 'Titan Trust Bank' },
  { code: '032', name: 'Union Bank of Nigeria' },
  { code: '033', name: 'United Bank For Africa' },
  { code: '215', name: 'Unity Bank' },
  { code: '035', name: 'Wema Bank' },
  { code: '057', name: 'Zenith Bank' },
];

export function findBank(code: string): Bank | undefined {
  return NIGERIAN_BANKS.find((bank) => bank.code === code);
}

const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/**
 * The CBN NUBAN check digit: the 3-digit bank code and the 9-digit serial, weighted 3,7,3,…; the tenth
 * digit of the account number is 10 − (sum mod 10), with 10 read as 0.
 */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = `${bankCode}${serial}`.split('').map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * NUBAN_WEIGHTS[i]!, 0);
  return (10 - (sum % 10)) % 10;
}

export type NubanCheck = 'ok' | 'format' | 'check-digit';

/** A 10-digit NUBAN; for banks with 3-digit CBN codes the check digit must agree with the bank. */
export function checkNuban(bankCode: string, accountNumber: string): NubanCheck {
  if (!/^\d{10}$/.test(accountNumber)) return 'format';
  if (!/^\d{3}$/.test(bankCode)) return 'ok';
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9])
    ? 'ok'
    : 'check-digit';
}

/** A valid NUBAN for a bank and serial (used for documented sandbox test accounts and in tests). */
export function makeNuban(bankCode: string, serial: string): string {
  return `${serial}${nubanCheckDigit(bankCode, serial)}`;
}
