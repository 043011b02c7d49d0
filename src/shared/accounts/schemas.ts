import { z } from 'zod';
import { digitCount, normalizeNigerianPhone } from '../phone';
import { safeText } from '../text';

/**
 * Account schemas shared by the server (validation, OpenAPI) and the web forms (react-hook-form), so a
 * person sees the same message in the browser that the API would answer with. The first messages of each
 * field are the seed's own words (seed §5); the rest are the rules the seed left out.
 */
export const PHONE_MIN_LENGTH = 11;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const messages = {
  nameRequired: 'please enter a name',
  emailRequired: 'please enter an email',
  emailInvalid: 'please enter a valid email address',
  phoneRequired: 'please your phone number',
  phoneInvalid: 'please enter a Nigerian phone number of at least 11 digits, e.g. 0803 123 4567',
  passwordRequired: 'please enter a password',
  passwordTooShort: `password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  confirmRequired: 'please confirm your password',
  passwordsMismatch: 'passwords must match',
  usernameRequired: 'please enter a username',
  usernameInvalid: 'a username is 3 to 30 letters, digits, dots or underscores',
  nameTooLong: 'a name is at most 100 characters',
  credentialsWrong: 'email or password incorrect',
} as const;

const name = safeText({ error: messages.nameRequired })
  .trim()
  .min(1, { message: messages.nameRequired, abort: true })
  .max(100, messages.nameTooLong);

const email = safeText({ error: messages.emailRequired })
  .trim()
  .min(1, { message: messages.emailRequired, abort: true })
  .max(254, messages.emailInvalid)
  .pipe(z.email({ error: messages.emailInvalid }))
  // `.invalid` is reserved (RFC 2606) and never delivered; deleted accounts' anonymous addresses use it.
  .refine((value) => !/\.invalid$/i.test(value), messages.emailInvalid)
  .transform((value) => value.toLowerCase());

/** The old client typed the phone as a number, so both are accepted; the result is E.164. */
const phoneNumber = z
  .union([z.string(), z.number()], { error: messages.phoneRequired })
  .refine((value) => String(value).trim().length > 0, { message: messages.phoneRequired, abort: true })
  .refine(
    (value) => typeof value === 'number' || digitCount(value) >= PHONE_MIN_LENGTH,
    messages.phoneInvalid,
  )
  .transform((value, ctx) => {
    const e164 = normalizeNigerianPhone(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: messages.phoneInvalid });
      return z.NEVER;
    }
    return e164;
  });

const password = z
  .string({ error: messages.passwordRequired })
  .min(1, { message: messages.passwordRequired, abort: true })
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

const confirmPassword = z
  .string({ error: messages.confirmRequired })
  .min(1, { message: messages.confirmRequired, abort: true });

const username = safeText({ error: messages.usernameRequired })
  .trim()
  .min(1, { message: messages.usernameRequired, abort: true })
  .regex(/^[A-Za-z0-9._]{3,30}$/, messages.usernameInvalid)
  .transform((value) => value.toLowerCase());

function passwordsMatch(value: { password: string; confirmPassword: string }) {
  return value.password === value.confirmPassword;
}

export const registerBusinessSchema = z
  .object({ name, email, phoneNumber, password, confirmPassword })
  .refine(passwordsMatch, { message: messages.passwordsMismatch, path: ['confirmPassword'] })
  .meta({ id: 'RegisterBusiness' });

export const registerUserSchema = z
  .object({ name, username, email, phoneNumber, password, confirmPassword })
  .refine(passwordsMatch, { message: messages.passwordsMismatch, path: ['confirmPassword'] })
  .meta({ id: 'RegisterUser' });

/** A user may sign in with an email or a username, so `email` here is "email or username". */
export const loginSchema = z
  .object({
    email: safeText({ error: messages.emailRequired })
      .trim()
      .min(1, messages.emailRequired)
      .max(254, messages.credentialsWrong),
    password: z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).max(1024),
    remember: z.boolean().optional().default(false),
  })
  .meta({ id: 'Login' });

export type RegisterBusinessInput = z.input<typeof registerBusinessSchema>;
export type RegisterBusiness = z.output<typeof registerBusinessSchema>;
export type RegisterUserInput = z.input<typeof registerUserSchema>;
export type RegisterUser = z.output<typeof registerUserSchema>;
export type LoginInput = z.input<typeof loginSchema>;
export type Login = z.output<typeof loginSchema>;

export const roleSchema = z.enum(['business', 'user']);
export type Role = z.infer<typeof roleSchema>;

export const moneySchema = z
  .object({ amount: z.number().int(), currency: z.string().length(3) })
  .meta({ id: 'Money', description: 'Integer minor units (kobo) and an ISO 4217 currency code.' });

export const accountSchema = z
  .object({
    id: z.uuid(),
    role: roleSchema,
    name: z.string(),
    email: z.string(),
    username: z.string().nullable(),
    phoneNumber: z.string().describe('E.164, e.g. +2348031234567'),
    logoUrl: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

export const sessionSchema = z
  .object({
    account: accountSchema,
    expiresAt: z.iso.datetime().nullable().describe('null for a browser-session login without "remember me"'),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const tokenResponseSchema = sessionSchema
  .extend({
    token: z.string().describe('Opaque bearer token: send it as `Authorization: Bearer <token>`.'),
  })
  .meta({ id: 'ApiToken' });

/* Passwords and signed-in devices (issue 12). */

export const passwordMessages = {
  currentRequired: 'please enter your current password',
  currentWrong: 'That is not your current password.',
  sameAsOld: 'The new password must be different from your current one.',
  resetLinkInvalid: 'This reset link has expired or was already used. Ask for a new one.',
  resetRequested:
    "If an account uses that address, we've sent a link to reset the password. It works for 30 minutes.",
} as const;

/** How long a mailed reset link works. */
export const PASSWORD_RESET_MINUTES = 30;

/** A new password: the registration rule, and no control characters (they cannot be typed anyway). */
const newPassword = safeText({ error: messages.passwordRequired })
  .min(1, { message: messages.passwordRequired, abort: true })
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

export const changePasswordSchema = z
  .object({
    currentPassword: safeText({ error: passwordMessages.currentRequired })
      .min(1, passwordMessages.currentRequired)
      .max(1024, passwordMessages.currentWrong),
    newPassword,
  })
  .refine((value) => value.currentPassword !== value.newPassword, {
    message: passwordMessages.sameAsOld,
    path: ['newPassword'],
  })
  .meta({ id: 'ChangePassword' });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

export const passwordResetRequestSchema = z
  .object({ email, role: roleSchema.optional() })
  .meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>;
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestSchema>;

export const passwordResetAcceptedSchema = z.object({ message: z.string() }).meta({
  id: 'PasswordResetAccepted',
  description: 'The same answer whether or not the address has an account.',
});

export const passwordResetConfirmSchema = z
  .object({
    token: safeText({ error: passwordMessages.resetLinkInvalid })
      .min(1, passwordMessages.resetLinkInvalid)
      .max(200, passwordMessages.resetLinkInvalid),
    newPassword,
  })
  .meta({ id: 'PasswordResetConfirm' });
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

export const signedInDeviceSchema = z
  .object({
    id: z.uuid(),
    browser: z
      .string()
      .describe('From the User-Agent, e.g. "Chrome on Windows", "API token", "Unknown browser"'),
    ip: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime().describe('Updated at most once a minute'),
    current: z.boolean().describe('The session this request came with'),
    kind: z.enum(['cookie', 'bearer']),
  })
  .meta({ id: 'SignedInDevice' });
export type SignedInDevice = z.infer<typeof signedInDeviceSchema>;

export const signedInDevicesSchema = z
  .object({ items: z.array(signedInDeviceSchema) })
  .meta({ id: 'SignedInDevices' });
export type SignedInDevices = z.infer<typeof signedInDevicesSchema>;

export const sessionIdParamsSchema = z.object({
  id: z.uuid({ error: 'No signed-in device has that id.' }),
});
