import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  cardMessages,
  DEFAULT_MAX_CARD_AMOUNT_MINOR,
  majorAmountSchema,
} from '../../../shared/catalogue/schemas';
import { DEFAULT_CURRENCY } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { showError, showSuccess } from '../../components/ui/dialogs';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { useGiftCardStore } from '../../lib/store';
import { cardKeys, createGiftCard } from './api';
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
  const [error, setError] = useState<string | undefined>();

  const currency = DEFAULT_CURRENCY;
  const parsed = majorAmountSchema(currency, DEFAULT_MAX_CARD_AMOUNT_MINOR).safeParse(amountText);
  const amountAboveZero = parsed.success || (Number(amountText) > 0 && Number.isFinite(Number(amountText)));
  const ready = amountAboveZero && colour !== null;

  const create = useMutation({
    mutationFn: createGiftCard,
    onSuccess: async (card) => {
      creatingCard(card);
      if (business) await queryClient.invalidateQueries({ queryKey: cardKeys.own(business.id) });
      setAmountText('');
      setColour(null);
      setValidity('');
      await showSuccess('Gift card created successfully!');
      onCreated?.();
    },
    onError: async (err) => {
      const message =
        err instanceof ApiError ? err.message : 'The card could not be created. Please try again.';
      if (err instanceof ApiError) {
        setError(
          err.fieldErrors.amount?.[0] ?? err.fieldErrors.colour?.[0] ?? err.fieldErrors.validityMonths?.[0],
        );
      }
      await showError('Card not created', message);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? cardMessages.amountInvalid);
      return;
    }
    if (!colour) {
      setError(cardMessages.colourRequired);
      return;
    }
    setError(undefined);
    create.mutate({ amount: parsed.data, colour, validityMonths: validity ? Number(validity) : null });
  }

  const preview = {
    businessName: business?.name ?? '',
    brandLogoUrl: business?.logoUrl ?? null,
    amount: { amount: parsed.success ? parsed.data : 0, currency },
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
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          placeholder="e.g. 5000"
          value={amountText}
          onChange={(event) => setAmountText(event.target.value)}
          hint="The card's value in naira, up to ₦1,000,000.00."
          error={error}
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
                onClick={() => setColour(swatch)}
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
                onChange={(event) => setColour(event.target.value)}
                className="h-9 w-12 cursor-pointer rounded border border-slate-300 bg-white"
              />
              Any colour
            </label>
          </div>
          <p className="mt-2 text-sm text-slate-600">
            {colour ? `Chosen: ${colour}` : 'No colour chosen yet.'}
          </p>
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={validityId} className="text-sm font-medium text-slate-700">
            Validity
          </label>
          <select
            id={validityId}
            value={validity}
            onChange={(event) => setValidity(event.target.value)}
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
