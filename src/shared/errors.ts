import { z } from 'zod';

/**
 * Every error the API returns has one of these codes. The web app shows `message`; code lets a client
 * branch without parsing text. Keep this list and `errorStatus` in step: one code, one HTTP status.
 */
export const errorCodes = {
  /** The request body, query or path did not pass validation; `details.fieldErrors` names the fields. */
  VALIDATION_FAILED: 400,
  /** No valid session or Bearer token. */
  UNAUTHENTICATED: 401,
  /** Email/username and password do not match an account (one message for both cases). */
  INVALID_CREDENTIALS: 401,
  /** Signed in, but this account may not act on that resource. */
  FORBIDDEN: 403,
  /** A cookie-authenticated change came without a same-origin Origin or Referer header. */
  CSRF_REJECTED: 403,
  /** No such resource, or not one this account may see. */
  NOT_FOUND: 404,
  /** The email is already used by a business or a user. */
  EMAIL_TAKEN: 409,
  /** The username is already used. */
  USERNAME_TAKEN: 409,
  /** Another business already uses this name. */
  BUSINESS_NAME_TAKEN: 409,
  /** The same Idempotency-Key was sent with a different request. */
  IDEMPOTENCY_CONFLICT: 409,
  /** The business already has a transaction PIN; change it instead (PUT /api/v1/wallet/pin). */
  PIN_ALREADY_SET: 409,
  /** The gift card stopped selling; cards already bought stay valid. */
  CARD_NOT_ON_SALE: 409,
  /** A payment provider's webhook whose signature does not verify. */
  WEBHOOK_SIGNATURE_INVALID: 401,
  /** A payment confirmation whose amount or currency differs from the order's. */
  PAYMENT_MISMATCH: 400,
  /** The payment provider could not be reached or refused the request. */
  PAYMENT_PROVIDER_ERROR: 502,
  /** The payout provider finds no account with that number at that bank. */
  BANK_ACCOUNT_NOT_FOUND: 422,
  /** The account name the business confirmed is not the name the bank holds now; verify again. */
  ACCOUNT_NAME_MISMATCH: 409,
  /** The business already has this bank account (same bank and number). */
  BANK_ACCOUNT_EXISTS: 409,
  /** A withdrawal to this bank account is still in flight (requested or processing). */
  BANK_ACCOUNT_IN_USE: 409,
  /** The payout provider could not be reached or refused the request. */
  PAYOUT_PROVIDER_ERROR: 502,
  /** The withdrawal is more than the wallet holds. */
  INSUFFICIENT_BALANCE: 400,
  /** A withdrawal needs a default bank account (or a chosen one). */
  BANK_ACCOUNT_REQUIRED: 400,
  /** The upload is too large. */
  PAYLOAD_TOO_LARGE: 413,
  /** The address is too long (a path segment over the router's limit); nothing was looked up. */
  URI_TOO_LONG: 414,
  /** The request's headers (cookies included) are over the server's size limit. */
  HEADERS_TOO_LARGE: 431,
  /** The request did not arrive in time (the connection was too slow or stalled). */
  REQUEST_TIMEOUT: 408,
  /** A withdrawal (or PIN change) needs a transaction PIN, and this business has not created one. */
  PIN_REQUIRED: 400,
  /** The transaction PIN is wrong; the message says how many tries are left before the lock-out. */
  PIN_INCORRECT: 403,
  /**
   * Too many wrong PINs: withdrawals are locked for a while. 423 Locked (not 429) because the lock belongs to
   * the business's PIN, not to the caller's request rate; `details.retryAfterSeconds` says when it ends.
   */
  PIN_LOCKED: 423,
  /**
   * The PIN was locked out 3 times in 24 hours (PIN_ESCALATE_LOCKS in shared/wallet/pin.ts), so it no
   * longer unlocks anything: withdrawals, bank-account changes and a PIN change with the old PIN all answer
   * this until a new PIN is set with the account password (PUT /api/v1/wallet/pin with `password`).
   */
  PIN_RESET_REQUIRED: 423,
  /** No card matches that code for this caller: one answer for unknown, foreign and mistyped codes. */
  CARD_CODE_NOT_FOUND: 404,
  /** The card cannot be spent now; the message says why (frozen, blocked, expired, used up); `details.status`. */
  CARD_NOT_REDEEMABLE: 409,
  /** The amount is more than the card's balance; `details.balance` is what is left. */
  CARD_BALANCE_TOO_LOW: 409,
  /** The redemption cannot be reversed (already reversed, or older than 24 hours). */
  REVERSAL_NOT_ALLOWED: 409,
  /** The card cannot be refunded; the message says why (used, older than 30 days, wallet short). */
  REFUND_NOT_ALLOWED: 409,
  /** The card is not in a state for that (e.g. unfreeze a card that is not frozen). */
  CARD_STATE_CONFLICT: 409,
  /**
   * A gift cannot go to that recipient: no user has that username, the address is a business's, or it is
   * the sender's own account. The message says which.
   */
  GIFT_RECIPIENT_INVALID: 422,
  /** The gift is no longer waiting (already accepted, declined, cancelled or returned); `details.status`. */
  GIFT_STATE_CONFLICT: 409,
  /** The current password given to change the password is wrong (counted like a failed login). */
  PASSWORD_INCORRECT: 403,
  /** A password-reset link that is unknown, expired or already used: one answer for all three. */
  RESET_LINK_INVALID: 410,
  /** No live session of the caller's own account has that id (another account's id answers this too). */
  SESSION_NOT_FOUND: 404,
  /** The e-mail confirmation link is unknown, used or expired; ask for a new one. */
  EMAIL_LINK_INVALID: 400,
  /**
   * The user still holds cards with a balance; `details` has their count and total. Use, send, or give them
   * up (`giveUpCards: true`) to delete the account.
   */
  ACCOUNT_HAS_CARDS: 409,
  /** Something must be settled before the account can be deleted; `details.blockers` says what, in words. */
  ACCOUNT_DELETION_BLOCKED: 409,
  /** Too many attempts; `details.retryAfterSeconds` says when to try again. */
  RATE_LIMITED: 429,
  /** Something failed on our side; details are logged, never returned. */
  INTERNAL_ERROR: 500,
  /** A dependency (the database) is not answering. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export function errorStatus(code: ErrorCode): number {
  return errorCodes[code];
}

export const apiErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ApiError' });

export type ApiError = z.infer<typeof apiErrorSchema>;

/** Field errors as returned in `details.fieldErrors` of a VALIDATION_FAILED error. */
export type FieldErrors = Record<string, string[]>;
