import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import {
  changePinSchema,
  createPinSchema,
  PIN_LOCK_MINUTES,
  pinMessages,
  type ChangePinInput,
  type CreatePinInput,
  type PinStatus,
} from '../../../shared/wallet/pin';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { changePin, createPin } from './pin-api';

/** The attributes every PIN input shares: a masked 4-digit number pad, never remembered by the browser. */
const pinInput = {
  type: 'password',
  inputMode: 'numeric',
  maxLength: 4,
  autoComplete: 'off',
} as const;

/** Shows the server's answer: field errors on their fields, anything else as one message at the top. */
function applyServerError<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  setFormError: (message: string) => void,
  fieldFor: Partial<Record<string, Path<T>>> = {},
) {
  if (!(error instanceof ApiError)) {
    setFormError('Something went wrong. Please try again.');
    return;
  }
  const fieldErrors = Object.entries(error.fieldErrors);
  const known = fieldErrors.filter(([field]) => field in form.getValues());
  for (const [field, messages] of known) form.setError(field as Path<T>, { message: messages[0] });
  const target = fieldFor[error.code];
  if (target) form.setError(target, { message: error.message }, { shouldFocus: true });
  else if (known.length === 0) setFormError(error.message);
}

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-3.5 py-2.5 text-sm text-red-800">
      {message}
    </p>
  );
}

/** The two "new PIN" fields shared by both forms. */
function NewPinFields<T extends { confirmPin: string }>({
  form,
  name,
  label,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
}) {
  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  return (
    <>
      <TextField
        label={label}
        hint="4 digits — not all the same digit, and not a run like 1234 or 4321"
        error={errors[name]?.message}
        {...pinInput}
        {...form.register(name)}
      />
      <TextField
        label="Confirm PIN"
        error={errors.confirmPin?.message}
        {...pinInput}
        {...form.register('confirmPin' as Path<T>)}
      />
    </>
  );
}

/** Says a PIN must be typed the same twice as soon as both are typed, not only once all else is right. */
function withMismatch<T extends FieldValues>(schema: Parameters<typeof zodResolver>[0], first: Path<T>) {
  const zod = zodResolver(schema);
  return async (values: T, context: unknown, options: Parameters<typeof zod>[2]) => {
    const result = await zod(values, context, options);
    const confirm = values.confirmPin as string;
    if (confirm !== '' && values[first] !== confirm && !result.errors.confirmPin) {
      return {
        values: {},
        errors: { ...result.errors, confirmPin: { type: 'custom', message: pinMessages.confirm } },
      };
    }
    return result;
  };
}

export function CreatePinForm({
  onDone,
  onCancel,
}: {
  onDone: (status: PinStatus) => void;
  onCancel: () => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreatePinInput>({
    resolver: withMismatch<CreatePinInput>(createPinSchema, 'pin') as never,
    defaultValues: { pin: '', confirmPin: '' },
  });
  const { setFocus } = form;
  useEffect(() => setFocus('pin'), [setFocus]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onDone(await createPin(values));
    } catch (error) {
      applyServerError(form, error, setFormError);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <FormError message={formError} />
      <NewPinFields form={form} name="pin" label="New PIN" />
      <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Create PIN'}
        </Button>
      </div>
    </form>
  );
}

type ChangeValues = { currentPin: string; password: string; newPin: string; confirmPin: string };

function toInput(values: ChangeValues, proof: 'password' | 'currentPin'): ChangePinInput {
  return {
    newPin: values.newPin,
    confirmPin: values.confirmPin,
    ...(proof === 'password' ? { password: values.password } : { currentPin: values.currentPin }),
  };
}

function lockText(lockedUntil: string): string {
  const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(
    new Date(lockedUntil),
  );
  return `Too many wrong PINs: withdrawals are locked until ${time}. You can still change the PIN with your account password.`;
}

export function ChangePinForm({
  status,
  onDone,
  onCancel,
}: {
  status: PinStatus;
  onDone: (status: PinStatus) => void;
  onCancel: () => void;
}) {
  // A blocked PIN (repeated lock-outs) can only be replaced with the password, like a forgotten one.
  const locked = Boolean(status.lockedUntil) || status.resetRequired;
  const [usePassword, setUsePassword] = useState(locked);
  // The resolver reads the chosen proof from a ref: it must see the toggle at once, between renders too.
  const proofRef = useRef<'password' | 'currentPin'>(locked ? 'password' : 'currentPin');
  const [formError, setFormError] = useState<string | null>(null);
  const check = withMismatch<ChangePinInput>(changePinSchema, 'newPin');
  const form = useForm<ChangeValues>({
    // Only the chosen proof is checked and sent; the other field is left out of the request.
    resolver: ((values: ChangeValues, context: unknown, options: never) =>
      check(toInput(values, proofRef.current) as ChangePinInput, context, options)) as never,
    defaultValues: { currentPin: '', password: '', newPin: '', confirmPin: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus(usePassword ? 'password' : 'currentPin'), [setFocus, usePassword]);

  function toggle() {
    setFormError(null);
    form.clearErrors(['currentPin', 'password']);
    form.setValue(usePassword ? 'password' : 'currentPin', '');
    proofRef.current = usePassword ? 'currentPin' : 'password';
    setUsePassword((v) => !v);
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      // The resolver already made the request body: the new PIN twice and only the chosen proof.
      onDone(await changePin(values as unknown as ChangePinInput));
    } catch (error) {
      applyServerError(form, error, setFormError, {
        PIN_INCORRECT: 'currentPin',
        FORBIDDEN: 'password',
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {status.resetRequired ? (
        <p className="rounded-lg bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900">
          Your PIN was locked too many times and no longer works. Set a new PIN with your account password.
        </p>
      ) : locked && status.lockedUntil ? (
        <p className="rounded-lg bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900">
          {lockText(status.lockedUntil)}
        </p>
      ) : null}
      <FormError message={formError} />
      {usePassword ? (
        <TextField
          key="password"
          label="Account password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
      ) : (
        <TextField
          key="currentPin"
          label="Current PIN"
          error={errors.currentPin?.message}
          {...pinInput}
          {...form.register('currentPin')}
        />
      )}
      <button
        type="button"
        onClick={toggle}
        className="-mt-2 self-start rounded text-left text-sm font-semibold text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {usePassword ? 'Use my current PIN instead' : 'Forgot your PIN? Use your account password'}
      </button>
      <NewPinFields form={form} name="newPin" label="New PIN" />
      {!usePassword ? (
        <p className="text-xs text-slate-600">
          A wrong current PIN counts toward the lock-out: after 5 wrong PINs, withdrawals lock for{' '}
          {PIN_LOCK_MINUTES} minutes.
        </p>
      ) : null}
      <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Change PIN'}
        </Button>
      </div>
    </form>
  );
}
