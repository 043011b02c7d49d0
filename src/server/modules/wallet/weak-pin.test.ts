import { describe, expect, it } from 'vitest';
import { changePinSchema, createPinSchema, isWeakPin, pinMessages } from '../../../shared/wallet/pin';

describe('isWeakPin', () => {
  it.each(['0000', '1111', '5555', '9999'])('%s (one digit repeated) is weak', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });
  it.each(['0123', '1234', '2345', '3456', '4567', '5678', '6789'])('%s (ascending run) is weak', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });
  it.each(['9876', '8765', '7654', '6543', '5432', '4321', '3210'])('%s (descending run) is weak', (pin) => {
    expect(isWeakPin(pin)).toBe(true);
  });
  it.each(['2580', '1357', '1235', '0987', '9012', '1122', '1212', '0001', '7890', '1243'])(
    '%s is fine',
    (pin) => {
      expect(isWeakPin(pin)).toBe(false);
    },
  );
  it('counts exactly 30 weak PINs among all 10,000', () => {
    let weak = 0;
    for (let n = 0; n < 10_000; n += 1) if (isWeakPin(String(n).padStart(4, '0'))) weak += 1;
    expect(weak).toBe(10 + 7 + 7);
  });
});

describe('the PIN form schemas', () => {
  it('create: weak, mismatched and malformed PINs have their messages', () => {
    const messages = (input: unknown) =>
      createPinSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages({ pin: '1234', confirmPin: '1234' })).toEqual([`pin: ${pinMessages.weak}`]);
    expect(messages({ pin: '2580', confirmPin: '2581' })).toEqual([`confirmPin: ${pinMessages.confirm}`]);
    expect(messages({ pin: '12', confirmPin: '12' })).toEqual([`pin: ${pinMessages.format}`]);
    expect(messages({ pin: '2580', confirmPin: '2580' })).toEqual([]);
  });
  it('change: needs the current PIN or the password', () => {
    expect(changePinSchema.safeParse({ newPin: '2580', confirmPin: '2580' }).success).toBe(false);
    expect(
      changePinSchema.safeParse({ newPin: '2580', confirmPin: '2580', currentPin: '1111' }).success,
    ).toBe(true);
    expect(
      changePinSchema.safeParse({ newPin: '2580', confirmPin: '2580', password: 'secret-1' }).success,
    ).toBe(true);
  });
});
