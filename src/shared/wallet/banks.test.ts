import { describe, expect, it } from 'vitest';
import { checkBankAccount, maskAccountNumber, sameAccountName } from './bank-accounts';
import { checkNuban, findBank, makeNuban, NIGERIAN_BANKS, nubanCheckDigit } from './banks';

const threeDigit = NIGERIAN_BANKS.filter((bank) => /^\d{3}$/.test(bank.code));
const longer = NIGERIAN_BANKS.filter((bank) => !/^\d{3}$/.test(bank.code));
const SERIALS = ['000000001', '123456789', '987654321', '000000000', '555123400', '314159265'];

describe('NUBAN check digit', () => {
  it('agrees with a worked example (GTBank 058, serial 015245160 → check digit 2)', () => {
    // 0·3+5·7+8·3 + 0·3+1·7+5·3 + 2·3+4·7+5·3 + 1·3+6·7+0·3 = 175, and 10 − (175 mod 10) = 5.
    const digits = '058015245160'.split('').map(Number);
    const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
    const sum = digits.reduce((total, d, i) => total + d * weights[i]!, 0);
    expect(nubanCheckDigit('058', '015245160')).toBe((10 - (sum % 10)) % 10);
    expect(sum).toBe(175);
    expect(nubanCheckDigit('058', '015245160')).toBe(5);
    expect(makeNuban('058', '015245160')).toBe('0152451605');
  });

  it('reads a check digit of 10 as 0', () => {
    // 044 + 000000000: 0+28+12 = 40 → 10 − 0 = 10 → 0.
    expect(nubanCheckDigit('044', '000000000')).toBe(0);
    expect(checkNuban('044', '0000000000')).toBe('ok');
  });

  it('accepts every NUBAN made with makeNuban for every bank with a 3-digit code', () => {
    expect(threeDigit.length).toBeGreaterThan(20);
    for (const bank of threeDigit) {
      for (const serial of SERIALS) {
        expect(checkNuban(bank.code, makeNuban(bank.code, serial)), `${bank.name} ${serial}`).toBe('ok');
      }
    }
  });

  it('refuses every single-digit change of a valid NUBAN, for 3-digit bank codes', () => {
    let refused = 0;
    for (const bank of threeDigit) {
      for (const serial of SERIALS) {
        const good = makeNuban(bank.code, serial);
        for (let position = 0; position < 10; position += 1) {
          for (let digit = 0; digit <= 9; digit += 1) {
            if (String(digit) === good[position]) continue;
            const changed = `${good.slice(0, position)}${digit}${good.slice(position + 1)}`;
            expect(checkNuban(bank.code, changed), `${bank.code} ${good} → ${changed}`).toBe('check-digit');
            refused += 1;
          }
        }
      }
    }
    expect(refused).toBe(threeDigit.length * SERIALS.length * 90);
  });

  it('ties the number to its bank: a valid Zenith NUBAN is not valid for GTBank', () => {
    const zenith = makeNuban('057', '123456789');
    expect(checkNuban('057', zenith)).toBe('ok');
    expect(checkNuban('058', zenith)).toBe('check-digit');
  });

  it('accepts any 10 digits for banks with longer codes (microfinance, mobile money)', () => {
    expect(longer.map((b) => b.code)).toEqual(expect.arrayContaining(['50211', '999992']));
    for (const bank of longer) {
      for (const number of ['0000000000', '1234567890', '9999999999', '0152451600']) {
        expect(checkNuban(bank.code, number)).toBe('ok');
      }
    }
  });

  it('refuses anything that is not exactly 10 digits, for any bank', () => {
    for (const code of ['058', '50211']) {
      for (const number of ['', '123456789', '12345678901', '12345 6789', '12345678a0', ' 1234567890']) {
        expect(checkNuban(code, number), JSON.stringify(number)).toBe('format');
      }
    }
  });
});

describe('checkBankAccount', () => {
  it('names the bank in the check-digit message', () => {
    const bad = makeNuban('057', '123456789').replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    expect(checkBankAccount('057', bad)).toEqual({
      ok: false,
      field: 'accountNumber',
      message: 'That account number is not valid for Zenith Bank. Check the 10 digits.',
    });
  });

  it('refuses a bank that is not on the list and returns the bank for a good pair', () => {
    expect(checkBankAccount('999', '0000000000')).toMatchObject({ ok: false, field: 'bankCode' });
    expect(checkBankAccount('058', makeNuban('058', '111111111'))).toEqual({
      ok: true,
      bank: findBank('058'),
    });
  });
});

describe('account names and masking', () => {
  it('compares names without regard to case, spacing or punctuation', () => {
    expect(sameAccountName('ADAEZE  OKAFOR', 'adaeze okafor')).toBe(true);
    expect(sameAccountName('OKAFOR, ADAEZE-N.', 'okafor adaeze n')).toBe(true);
    expect(sameAccountName('ADAEZE OKAFOR', 'ADAEZE OKAFORR')).toBe(false);
    expect(sameAccountName('ADAEZE OKAFOR', 'OKAFOR ADAEZE')).toBe(false);
  });

  it('masks all but the last four digits', () => {
    expect(maskAccountNumber('0152451605')).toBe('•••••• 1605');
  });
});
