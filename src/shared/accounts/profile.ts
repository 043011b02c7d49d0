import { z } from 'zod';
import { safeText } from '../text';
import { moneySchema, registerUserSchema } from './schemas';

/**
 * The profile an account owner edits, the e-mail change they confirm by mail, and deleting the account.
 * The fields are registration's own (same rules, same messages), so a name or phone that could not be
 * registered cannot be saved either.
 */
const { name, username, phoneNumber, email } = registerUserSchema.shape;

export const profileMessages = {
  nothingToChange: 'Change at least one of name, phone number or username.',
  passwordRequired: 'please enter your password',
  sameEmail: 'That is already your e-mail address.',
  usernameForUsers: 'Only a user has a username; a business is known by its name.',
} as const;

const currentPassword = safeText({ error: profileMessages.passwordRequired })
  .min(1, profileMessages.passwordRequired)
  .max(1024, 'That password is not correct.');

export const updateProfileSchema = z
  .strictObject({
    name: name.optional(),
    phoneNumber: phoneNumber.optional(),
    username: username.optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), {
    message: profileMessages.nothingToChange,
  })
  .meta({ id: 'UpdateProfile' });
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;
export type UpdateProfile = z.output<typeof updateProfileSchema>;

export const emailChangeSchema = z
  .strictObject({
    newEmail: email,
    password: currentPassword,
  })
  .meta({ id: 'EmailChangeRequest' });
export type EmailChangeInput = z.input<typeof emailChangeSchema>;
export type EmailChange = z.output<typeof emailChangeSchema>;

export const messageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });

export const confirmEmailSchema = z
  .strictObject({
    token: safeText({ error: 'This link is not valid.' }).min(1, 'This link is not valid.').max(200),
  })
  .meta({ id: 'EmailChangeConfirm' });

export const confirmedEmailSchema = z.object({ email: z.string() }).meta({ id: 'EmailChanged' });

/** How long a new address's confirmation link works. */
export const EMAIL_CHANGE_HOURS = 24;

export const deletionBlockerSchema = z
  .object({
    code: z
      .string()
      .describe(
        'GIFT_IN_PROGRESS, WALLET_HAS_MONEY, WITHDRAWAL_IN_FLIGHT or SOLD_CARDS_HAVE_BALANCE; `message` says it in words',
      ),
    message: z.string(),
    amount: moneySchema.optional(),
    count: z.number().int().optional(),
  })
  .meta({ id: 'DeletionBlocker' });
export type DeletionBlocker = z.infer<typeof deletionBlockerSchema>;

export const accountDeletionSchema = z
  .object({
    canDelete: z.boolean().describe('No blockers (cards with a balance can still be given up)'),
    blockers: z.array(deletionBlockerSchema),
    cardsToGiveUp: z
      .object({ count: z.number().int(), total: z.number().int(), currency: z.string().length(3) })
      .describe("A user's cards that still hold money: deleting with giveUpCards voids them"),
  })
  .meta({ id: 'AccountDeletion' });
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;

export const deleteAccountSchema = z
  .strictObject({
    password: currentPassword,
    giveUpCards: z.boolean().optional().default(false),
  })
  .meta({ id: 'DeleteAccount' });
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;
export type DeleteAccount = z.output<typeof deleteAccountSchema>;

/** What the user ticks to delete anyway: "Give up these cards (3 cards, ₦45,000.00)". */
export function cardsWord(count: number): string {
  return `${count} card${count === 1 ? '' : 's'}`;
}
