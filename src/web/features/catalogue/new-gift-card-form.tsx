import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { cardMessages, DEFAULT_MAX_CARD_AMOUNT_MINOR } from '../../../shared/catalogue/schemas';
import { DEFAULT_CURRENCY, formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { showError, showSuccess } from '../../components/ui/dialogs';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { useGiftCardStore } from '../../lib/store';
import { cardKeys, createGiftCard } from './api';
import { amountErrorToShow, normaliseAmountText, readCardAmount } from './card-amount';
import { GiftCardTile } from './gift-card-tile';
import { VALIDITY_MONTHS, validityLabel } from './validity';

const SWATCHES = ['#4f46e5', '#0f766e', '#b91c1c', '#f59e0b', '#fef3c7', '#111827', '#ec4899', '#ffffff'];

/**
 * Seed §2 "New Gift Card": the business's name and logo, an Amount, a colour, and Create Card — grey and
 * inactive until the amount is above 0 and a colour is chosen (seed §5). The server checks it all again.
 */
export function NewGiftCardForm({ onCreated }: { onCreated?: () => void }) {
  const business = useGiftCardStore((s) => s.bizClient);
  const creatingCard = useGiftCardStore((s) => s.creatingCard);
  const queryClient = useQueryClient();
  const colourLabelId = useId();
  const validityId = useId();
  const [validity, setValidity] = useState('');
  const [amountText, setAmountText] = useState('');
  const [colour, setColour] = useState<string | null>(null);
  // The form's own check of the amount shows once the field was left or Create Card pressed (then follows
  // every change); the server's message shows until the field it is about is changed.
  const [amountChecked, setAmountChecked] = useState(false);
  const [serverAmountError, setServerAmountError] = useState<string | undefined>();
  const [colourError, setColourError] = useState<string | undefined>();
  const [validityError, setValidityError] = useState<string | undefined>();

  const currency = DEFAULT_CURRENCY;
  const maxAmount = formatMoney({ amount: DEFAULT_MAX_CARD_AMOUNT_MINOR, currency });
  const reading = readCardAmount(amountText, currency, DEFAULT_MAX_CARD_AMOUNT_MINOR);
  const amountError = amountErrorToShow({ reading, checked: amountChecked, serverError: serverAmountError });
  const typedNumber = Number(normaliseAmountText(amountText));
  const amountAboveZero = reading.previewMinor > 0 || (Number.isFinite(typedNumber) && typedNumber > 0);
  const ready = amountAboveZero && colour !== null;

  const create = useMutation({
    mutationFn: createGiftCard,
    onSuccess: async (card) => {
      creatingCard(card);
      if (business) await queryClient.invalidateQueries({ queryKey: cardKeys.own(business.id) });
      setAmountText('');
      setColour(null);
      setValidity('');
      setAmountChecked(false);
      await showSuccess('Gift card created successfully!');
      onCreated?.();
    },
    onError: async (err) => {
      const message =
        err instanceof ApiError ? err.message : 'The card could not be created. Please try again.';
      if (err instanceof ApiError) {
        setServerAmountError(err.fieldErrors.amount?.[0]);
        setColourError(err.fieldErrors.colour?.[0]);
        setValidityError(err.fieldErrors.validityMonths?.[0]);
      }
      await showError('Card not created', message);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setAmountChecked(true);
    if (reading.minor === null) return;
    if (!colour) {
      setColourError(cardMessages.colourRequired);
      return;
    }
    setServerAmountError(undefined);
    setColourError(undefined);
    setValidityError(undefined);
    create.mutate({ amount: reading.minor, colour, validityMonths: validity ? Number(validity) : null });
  }

  const preview = {
    businessName: business?.name ?? '',
    brandLogoUrl: business?.logoUrl ?? null,
    amount: { amount: reading.previewMinor, currency },
    colour: colour ?? '#e2e8f0',
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_auto]">
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <div className="flex items-center gap-3">
          {business?.logoUrl ? (
            <img
              src={business.logoUrl}
              alt={`${business.name} logo`}
              className="h-12 w-12 rounded-full object-cover ring-1 ring-slate-200"
            />
          ) : (
            <img
              src="/logo-placeholder.svg"
              alt="No logo yet"
              className="h-12 w-12 rounded-full ring-1 ring-slate-200"
            />
          )}
          <div>
            <p className="font-semibold text-slate-900">{business?.name}</p>
            <p className="text-sm text-slate-600">Cards show your name and logo.</p>
          </div>
        </div>
        <TextField
          label="Amount"
          // Text, not number: a number field empties itself on "5,000,000" and says nothing.
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 5000"
          value={amountText}
          onChange={(event) => {
            setAmountText(event.target.value);
            setServerAmountError(undefined);
          }}
          onBlur={() => {
            if (amountText.trim() !== '') setAmountChecked(true);
          }}
          hint={`The card's value in naira, up to ${maxAmount}.`}
          error={amountError}
        />
        <fieldset>
          <legend id={colourLabelId} className="text-sm font-medium text-slate-700">
            Colour
          </legend>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            {SWATCHES.map((swatch) => (
              <button
                key={swatch}
                type="button"
                aria-label={`Colour ${swatch}`}
                aria-pressed={colour === swatch}
                onClick={() => {
                  setColour(swatch);
                  setColourError(undefined);
                }}
                className={`h-9 w-9 rounded-full border border-slate-300 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  colour === swatch ? 'ring-2 ring-brand-600 ring-offset-2' : ''
                }`}
                style={{ background: swatch }}
              />
            ))}
            <label className="ml-1 flex items-center gap-2 text-sm text-slate-700">
              <input
                type="color"
                value={colour ?? '#4f46e5'}
                onChange={(event) => {
                  setColour(event.target.value);
                  setColourError(undefined);
                }}
                className="h-9 w-12 cursor-pointer rounded border border-slate-300 bg-white"
              />
              Any colour
            </label>
          </div>
          <p className="mt-2 text-sm text-slate-600">
            {colour ? `Chosen: ${colour}` : 'No colour chosen yet.'}
          </p>
          {colourError ? (
            <p role="alert" className="mt-1 text-sm text-red-700">
              {colourError}
            </p>
          ) : null}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={validityId} className="text-sm font-medium text-slate-700">
            Validity
          </label>
          <select
            id={validityId}
            value={validity}
            onChange={(event) => {
              setValidity(event.target.value);
              setValidityError(undefined);
            }}
            aria-describedby={`${validityId}-hint`}
            className="w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-sm outline-none transition focus:border-brand-500 focus:ring-2 focus:ring-brand-200 sm:max-w-xs"
          >
            <option value="">No expiry</option>
            {VALIDITY_MONTHS.map((months) => (
              <option key={months} value={months}>
                {validityLabel(months)}
              </option>
            ))}
          </select>
          <p id={`${validityId}-hint`} className="text-xs text-slate-600">
            How long each card stays valid from the day it is bought. Buyers see it before they pay.
          </p>
          {validityError ? (
            <p role="alert" className="text-sm text-red-700">
              {validityError}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={!ready || create.isPending} className="self-start">
          {create.isPending ? 'Creating…' : 'Create Card'}
        </Button>
      </form>
      <div className="flex flex-col items-center gap-3">
        <p className="text-sm font-medium text-slate-600">Preview</p>
        <GiftCardTile card={preview} />
      </div>
    </div>
  );
}
