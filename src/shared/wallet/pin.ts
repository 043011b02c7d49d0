import { z } from 'zod';
import { PIN_LOCK_ATTEMPTS, PIN_LOCK_MINUTES, pinMessages } from './schemas';

export { PIN_LOCK_ATTEMPTS, PIN_LOCK_MINUTES, pinMessages };

/**
 * Each lock-out ends with a fresh set of tries, so locks are counted too: this many within PIN_ESCALATE_HOURS
 * block the PIN until a new one is set with the account password (issue 12, hole 10).
 */
export const PIN_ESCALATE_LOCKS = 3;
export const PIN_ESCALATE_HOURS = 24;

/** Messages of the PIN forms beyond `pinMessages` (kept here so the wallet schemas file stays untouched). */
export const pinFormMessages = {
  confirmRequired: 'please type the PIN again to confirm it',
  currentRequired: 'please enter your current PIN or your account password',
  passwordRequired: 'please enter your account password',
} as const;

/**
 * A PIN is weak when every digit is the same (0000, 1111 …) or the digits run up or down by one
 * (0123, 1234 … 6789, 9876 … 3210). Only 4-digit strings are judged; anything else is a format error.
 */
export function isWeakPin(pin: string): boolean {
  if (!/^\d{4}$/.test(pin)) return false;
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - digits[i]!);
  return steps.every((s) => s === 0) || steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

/** Any 4-digit PIN, e.g. the current one (which was chosen before and may predate the weak-PIN rule). */
export const pinSchema = z
  .string({ error: pinMessages.required })
  .min(1, { message: pinMessages.required, abort: true })
  .regex(/^\d{4}$/, { message: pinMessages.format, abort: true });

/** A PIN being chosen: 4 digits and not weak. */
export const newPinSchema = pinSchema.refine((pin) => !isWeakPin(pin), { message: pinMessages.weak });

const confirmPin = z
  .string({ error: pinFormMessages.confirmRequired })
  .min(1, { message: pinFormMessages.confirmRequired });

export const createPinSchema = z
  .object({ pin: newPinSchema, confirmPin })
  .refine((v) => v.pin === v.confirmPin, { message: pinMessages.confirm, path: ['confirmPin'] })
  .meta({ id: 'CreatePin' });
export type CreatePinInput = z.infer<typeof createPinSchema>;

export const changePinSchema = z
  .object({
    newPin: newPinSchema,
    confirmPin,
    currentPin: pinSchema.optional().describe('The PIN in use now; a wrong one counts toward the lock-out'),
    password: z
      .string()
      .min(1, { message: pinFormMessages.passwordRequired })
      .max(200)
      .optional()
      .describe('The account password, instead of the current PIN (e.g. when it is forgotten)'),
  })
  .refine((v) => v.newPin === v.confirmPin, { message: pinMessages.confirm, path: ['confirmPin'] })
  .refine((v) => v.currentPin !== undefined || v.password !== undefined, {
    message: pinFormMessages.currentRequired,
    path: ['currentPin'],
  })
  .meta({ id: 'ChangePin' });
export type ChangePinInput = z.infer<typeof changePinSchema>;

export const pinStatusSchema = z
  .object({
    set: z.boolean().describe('Whether the business has created its transaction PIN'),
    lockedUntil: z.iso
      .datetime()
      .nullable()
      .describe('While wrong PINs lock withdrawals: when the lock ends'),
    attemptsLeft: z
      .number()
      .int()
      .min(0)
      .max(PIN_LOCK_ATTEMPTS)
      .describe('Wrong PINs still allowed before withdrawals lock'),
    resetRequired: z
      .boolean()
      .describe(
        'The PIN was locked out too often and no longer works: set a new one with the account password',
      ),
  })
  .meta({ id: 'PinStatus' });
export type PinStatus = z.infer<typeof pinStatusSchema>;
