import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import {
  GIFT_MESSAGE_MAX_LENGTH,
  GIFT_SCHEDULE_MAX_DAYS,
  giftAddressSchema,
  giftMessages,
  giftRequestSchema,
  type GiftAddress,
  type GiftRequest,
} from '../../../shared/cards/gifts';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { isoToLocalInput, localInputNow, localInputToIso } from './gift-time';

const DAY_MS = 86_400_000;
/** From this many characters left, the counter is also spoken. */
const ANNOUNCE_WHEN_LEFT = 50;

/**
 * The shared schema, plus what only makes sense in a browser right now: a delivery time in the past or
 * more than a year ahead (the server checks the same, with the same words).
 */
const giftFormSchema = giftRequestSchema.superRefine((value, ctx) => {
  if (!value.deliverAt) return;
  const at = Date.parse(value.deliverAt);
  if (at <= Date.now())
    ctx.addIssue({ code: 'custom', path: ['deliverAt'], message: giftMessages.deliverAtPast });
  else if (at > Date.now() + GIFT_SCHEDULE_MAX_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['deliverAt'], message: giftMessages.deliverAtTooFar });
});

export type GiftFormInput = z.input<typeof giftRequestSchema>;
export type GiftForm = UseFormReturn<GiftFormInput, unknown, GiftRequest>;

const giftFields = ['recipient', 'recipientName', 'message', 'deliverAt'] as const;

/** The gift form's state: react-hook-form over the shared GiftRequest schema. */
export function useGiftForm(defaults: Partial<GiftFormInput> = {}): GiftForm {
  return useForm<GiftFormInput, unknown, GiftRequest>({
    resolver: zodResolver(giftFormSchema),
    defaultValues: { recipient: '', recipientName: '', message: '', deliverAt: undefined, ...defaults },
  });
}

/**
 * Puts the server's answer under the fields it is about: VALIDATION_FAILED names them (as `recipient` or,
 * inside an order, `gift.recipient`); GIFT_RECIPIENT_INVALID is about the recipient. Answers whether any
 * field took it (otherwise the caller shows the message on its own).
 */
export function showGiftErrors<T extends GiftFormInput | GiftAddress>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
  fields: readonly string[] = giftFields,
): boolean {
  if (!(error instanceof ApiError)) return false;
  const named: [string, string][] = [];
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    const field = key.replace(/^gift\./, '');
    if (fields.includes(field) && messages[0]) named.push([field, messages[0]]);
  }
  if (error.code === 'GIFT_RECIPIENT_INVALID' && !named.some(([field]) => field === 'recipient')) {
    named.push(['recipient', error.message]);
  }
  named.forEach(([field, message], index) =>
    form.setError(field as Parameters<typeof form.setError>[0], { message }, { shouldFocus: index === 0 }),
  );
  return named.length > 0;
}

/** Recipient and their name: the part of a gift its sender may correct later. */
function AddressFields({ form }: { form: UseFormReturn<GiftFormInput | GiftAddress, unknown, unknown> }) {
  const { errors } = form.formState;
  return (
    <>
      <TextField
        label="Recipient’s e-mail or username"
        autoComplete="off"
        spellCheck={false}
        placeholder="ada@example.com or @ada_obi"
        hint="They need no account yet: an e-mail address gets a link to accept it."
        error={errors.recipient?.message}
        {...form.register('recipient')}
      />
      <TextField
        label="Their name (optional)"
        autoComplete="off"
        placeholder="e.g. Ada"
        error={errors.recipientName?.message}
        {...form.register('recipientName')}
      />
    </>
  );
}

/**
 * The fields of a gift — recipient (e-mail or username), their name, a message of at most 500 characters
 * with a live counter, and an optional delivery date and time in the browser's own time zone — for
 * sending a card one holds and for buying one as a gift.
 */
export function GiftFields({ form }: { form: GiftForm }) {
  const id = useId();
  const { errors } = form.formState;
  const message = form.watch('message') ?? '';
  const left = GIFT_MESSAGE_MAX_LENGTH - message.length;
  const messageError = errors.message?.message;
  const counterId = `${id}-counter`;
  const messageErrorId = `${id}-message-error`;
  const deliverError = errors.deliverAt?.message;
  const deliverHintId = `${id}-deliver-hint`;
  const deliverErrorId = `${id}-deliver-error`;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  return (
    <div className="flex flex-col gap-4">
      <AddressFields form={form as unknown as UseFormReturn<GiftFormInput | GiftAddress, unknown, unknown>} />

      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-message`} className="text-sm font-medium text-slate-700">
          Message (optional)
        </label>
        <textarea
          id={`${id}-message`}
          rows={4}
          placeholder="Happy birthday! Treat yourself."
          aria-invalid={messageError ? true : undefined}
          aria-describedby={[messageError ? messageErrorId : '', counterId].filter(Boolean).join(' ')}
          className={`resize-y rounded-lg border px-3.5 py-2.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 ${
            messageError || left < 0 ? 'border-red-500' : 'border-slate-300'
          }`}
          {...form.register('message')}
        />
        <p
          id={counterId}
          className={`text-right text-xs tabular-nums ${left < 0 ? 'font-semibold text-red-700' : 'text-slate-600'}`}
        >
          {message.length} / {GIFT_MESSAGE_MAX_LENGTH} characters
        </p>
        {/* Spoken only near the limit, not on every key. */}
        <p role="status" aria-live="polite" className="sr-only">
          {left <= ANNOUNCE_WHEN_LEFT
            ? left >= 0
              ? `${left} characters left`
              : `${-left} characters over the limit`
            : ''}
        </p>
        {messageError ? (
          <p id={messageErrorId} role="alert" className="text-sm text-red-700">
            {messageError}
          </p>
        ) : null}
      </div>

      <Controller
        control={form.control}
        name="deliverAt"
        render={({ field }) => (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-deliver`} className="text-sm font-medium text-slate-700">
              Deliver on (optional)
            </label>
            <div className="flex flex-wrap items-center gap-2">
              <input
                ref={field.ref}
                id={`${id}-deliver`}
                type="datetime-local"
                name={field.name}
                min={localInputNow()}
                value={isoToLocalInput(field.value)}
                onChange={(event) => field.onChange(localInputToIso(event.target.value))}
                onBlur={field.onBlur}
                aria-invalid={deliverError ? true : undefined}
                aria-describedby={deliverError ? deliverErrorId : deliverHintId}
                className={`min-w-0 flex-1 rounded-lg border px-3.5 py-2.5 text-base text-slate-900 shadow-sm outline-none transition focus:border-brand-500 focus:ring-2 focus:ring-brand-200 ${
                  deliverError ? 'border-red-500' : 'border-slate-300'
                }`}
              />
              {field.value ? (
                <button
                  type="button"
                  onClick={() => field.onChange(undefined)}
                  className="rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  Send now instead
                </button>
              ) : null}
            </div>
            {deliverError ? (
              <p id={deliverErrorId} role="alert" className="text-sm text-red-700">
                {deliverError}
              </p>
            ) : (
              <p id={deliverHintId} className="text-xs text-slate-600">
                Leave it empty to send it now. Your time zone: {zone}.
              </p>
            )}
          </div>
        )}
      />
    </div>
  );
}

/** Correcting a sent gift's address: the recipient and their name, over the shared schema. */
export function useGiftAddressForm(defaults: GiftAddress) {
  return useForm<z.input<typeof giftAddressSchema>, unknown, GiftAddress>({
    resolver: zodResolver(giftAddressSchema),
    defaultValues: { recipient: defaults.recipient, recipientName: defaults.recipientName ?? '' },
  });
}

export function GiftAddressFields({
  form,
}: {
  form: UseFormReturn<z.input<typeof giftAddressSchema>, unknown, GiftAddress>;
}) {
  return (
    <div className="flex flex-col gap-4">
      <AddressFields form={form as unknown as UseFormReturn<GiftFormInput | GiftAddress, unknown, unknown>} />
    </div>
  );
}
