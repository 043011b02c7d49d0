import { z } from 'zod';
import { moneySchema } from '../accounts/schemas';
import { CONTROL_CHARACTERS } from '../text';

export const GIFT_MESSAGE_MAX_LENGTH = 500;
export const GIFT_NAME_MAX_LENGTH = 100;
/** How long a sent gift waits for its recipient before it returns to the sender. */
export const GIFT_LINK_DAYS = 30;
/** How far ahead a gift may be scheduled. */
export const GIFT_SCHEDULE_MAX_DAYS = 365;

export const giftMessages = {
  recipientRequired: 'Enter the e-mail address or Giftmart username of the person you are sending it to.',
  recipientInvalid:
    'Enter a valid e-mail address or a Giftmart username (3 to 30 letters, digits, dots or underscores).',
  nameTooLong: `Their name can be at most ${GIFT_NAME_MAX_LENGTH} characters.`,
  messageTooLong: `The message can be at most ${GIFT_MESSAGE_MAX_LENGTH} characters.`,
  controlCharacters: 'Remove the special (control) characters.',
  deliverAtPast: 'Choose a delivery time in the future, or leave it empty to send it now.',
  deliverAtTooFar: `A gift can be scheduled at most ${GIFT_SCHEDULE_MAX_DAYS} days ahead.`,
  deliverAtInvalid: 'Enter a valid date and time.',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME = /^@?[A-Za-z0-9._]{3,30}$/;

/** An e-mail address or a username (with or without a leading @). */
export const giftRecipientSchema = z
  .string({ error: giftMessages.recipientRequired })
  .trim()
  .min(1, { message: giftMessages.recipientRequired, abort: true })
  .max(254, { message: giftMessages.recipientInvalid, abort: true })
  // \s does not cover NUL and the other control characters, which PostgreSQL's text refuses.
  .refine((v) => !CONTROL_CHARACTERS.test(v), { message: giftMessages.controlCharacters, abort: true })
  .refine((v) => EMAIL.test(v) || USERNAME.test(v), giftMessages.recipientInvalid);

const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((v) => !CONTROL_CHARACTERS.test(v.replace(/[\n\r\t]/g, ' ')), giftMessages.controlCharacters)
    .optional()
    .transform((v) => (v ? v : undefined));

export const giftRequestSchema = z
  .object({
    recipient: giftRecipientSchema.describe('The recipient’s e-mail address or Giftmart username'),
    recipientName: optionalText(GIFT_NAME_MAX_LENGTH, giftMessages.nameTooLong).describe(
      'How the sender names them in the mail',
    ),
    message: optionalText(GIFT_MESSAGE_MAX_LENGTH, giftMessages.messageTooLong).describe(
      'A note from the sender (at most 500 characters)',
    ),
    deliverAt: z.iso
      .datetime({ offset: true, error: giftMessages.deliverAtInvalid })
      .optional()
      .describe('When to send it; omitted: now. At most a year ahead.'),
  })
  .meta({ id: 'GiftRequest' });
export type GiftRequest = z.infer<typeof giftRequestSchema>;

export const giftAddressSchema = giftRequestSchema
  .pick({ recipient: true, recipientName: true })
  .meta({ id: 'GiftAddressCorrection' });
export type GiftAddress = z.infer<typeof giftAddressSchema>;

/** The link's token, for a recipient who arrives from the e-mail (absent when signed in as the named recipient). */
export const giftTokenSchema = z
  .object({
    token: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9_-]*$/, 'That gift link is not valid.')
      .optional(),
  })
  .meta({ id: 'GiftToken' });

export const giftStatusSchema = z.enum([
  'scheduled',
  'pending',
  'accepted',
  'declined',
  'cancelled',
  'expired',
]);
export type GiftStatus = z.infer<typeof giftStatusSchema>;

export const giftSchema = z
  .object({
    id: z.uuid(),
    status: giftStatusSchema.describe(
      'scheduled: waits for deliverAt; pending: sent, waiting for the recipient; accepted; declined, cancelled or expired: the card went back to the sender',
    ),
    direction: z.enum(['sent', 'received']).describe('Whether the caller sent it or is its recipient'),
    senderName: z.string(),
    recipient: z.string().describe('The e-mail address or username the sender typed'),
    recipientName: z.string().nullable(),
    message: z.string().nullable(),
    card: z.object({
      businessName: z.string(),
      brandLogoUrl: z.string().nullable(),
      colour: z.string(),
      uniqueId: z.string(),
      balance: moneySchema,
      expiresAt: z.iso.datetime().nullable(),
    }),
    purchasedCardId: z
      .uuid()
      .nullable()
      .describe('The card, for whoever holds it now (the sender until it is accepted, then the recipient)'),
    deliverAt: z.iso.datetime().nullable(),
    sentAt: z.iso.datetime().nullable(),
    expiresAt: z.iso.datetime().nullable().describe('When a pending gift returns to the sender'),
    endedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Gift' });
export type Gift = z.infer<typeof giftSchema>;

export const giftPageSchema = z
  .object({ items: z.array(giftSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'GiftPage' });
export type GiftPage = z.infer<typeof giftPageSchema>;

export const giftListQuerySchema = z.object({
  direction: z.enum(['sent', 'received']).optional().describe('Omitted: both'),
  purchasedCardId: z
    .uuid({ error: 'That is not a valid id.' })
    .optional()
    .describe('Only the gifts of this card (e.g. the open gift holding one of your cards)'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(200).optional(),
});
