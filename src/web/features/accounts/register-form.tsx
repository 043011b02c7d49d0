import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Path } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  messages,
  PHONE_MIN_LENGTH,
  registerBusinessSchema,
  registerUserSchema,
} from '../../../shared/accounts/schemas';
import { Button } from '../../components/ui/button';
import { flashSuccess, showError } from '../../components/ui/dialogs';
import { Checkbox, TextField } from '../../components/ui/form-field';
import { ApiError } from '../../lib/api';
import { nextQuery, safeNextPath } from '../../lib/next-path';
import { registerBusiness, registerUser } from './api';

const TERMS_REQUIRED = 'please accept the terms to continue';
const terms = z.object({ terms: z.literal(true, TERMS_REQUIRED) });
const businessForm = registerBusinessSchema.and(terms);
const userForm = registerUserSchema.and(terms);

type BusinessValues = z.input<typeof businessForm>;
type UserValues = z.input<typeof userForm>;
type Values = BusinessValues & Partial<UserValues>;

/**
 * Seed §2 and §5: the same zod schema (and messages) as the server; a 1-second success message, then the
 * login page; a failure shows the server's message and marks the fields it names. A safe `?next=` (a gift's
 * link) travels on to the login page, which goes back there once signed in.
 */
export function RegisterForm({ role }: { role: 'business' | 'user' }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const schema = role === 'business' ? businessForm : userForm;
  const zod = zodResolver(schema as unknown as typeof businessForm);
  const form = useForm<Values>({
    // The schema checks that the passwords match only once every field is valid; a person should hear it
    // as soon as both passwords are typed.
    resolver: async (values, context, options) => {
      const result = await zod(values, context, options);
      const mismatch = values.confirmPassword !== '' && values.password !== values.confirmPassword;
      if (mismatch && !result.errors.confirmPassword) {
        return {
          values: {},
          errors: {
            ...result.errors,
            confirmPassword: { type: 'custom', message: messages.passwordsMismatch },
          },
        };
      }
      return result;
    },
    defaultValues: {
      name: '',
      email: '',
      phoneNumber: '',
      password: '',
      confirmPassword: '',
      ...(role === 'user' ? { username: '' } : {}),
    } as Values,
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (raw) => {
    const values = schema.parse(raw);
    try {
      if (role === 'business') await registerBusiness(values as z.output<typeof businessForm>);
      else await registerUser(values as z.output<typeof userForm>);
      await flashSuccess('Registration successful', 'Taking you to the login page');
      navigate(`${role === 'business' ? '/business/login' : '/login'}${nextQuery(next)}`);
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, fieldMessages] of Object.entries(error.fieldErrors)) {
          if (field in form.getValues()) form.setError(field as Path<Values>, { message: fieldMessages[0] });
        }
        await showError('Registration failed', error.message);
      } else {
        await showError('Registration failed', 'Something went wrong. Please try again.');
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        label={role === 'business' ? 'Business name' : 'Full name'}
        autoComplete={role === 'business' ? 'organization' : 'name'}
        placeholder={role === 'business' ? 'e.g. Mama Put Kitchen' : 'e.g. Ada Obi'}
        error={errors.name?.message}
        {...form.register('name')}
      />
      {role === 'user' ? (
        <TextField
          label="Username"
          autoComplete="username"
          placeholder="e.g. ada_obi"
          error={errors.username?.message}
          {...form.register('username')}
        />
      ) : null}
      <TextField
        label={role === 'business' ? 'Business e-mail' : 'Email'}
        type="email"
        autoComplete="email"
        placeholder={role === 'business' ? 'hello@yourbusiness.com' : 'you@example.com'}
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField
        label="Phone number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        minLength={PHONE_MIN_LENGTH}
        placeholder="0803 123 4567"
        error={errors.phoneNumber?.message}
        {...form.register('phoneNumber')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder="At least 8 characters"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        placeholder="Type it again"
        error={errors.confirmPassword?.message}
        {...form.register('confirmPassword')}
      />
      <Checkbox
        required
        label={
          <>
            I agree to the{' '}
            <Link to="/terms" className="font-semibold text-brand-700 underline">
              {role === 'business' ? 'terms and privacy policy' : 'terms'}
            </Link>
          </>
        }
        error={errors.terms?.message}
        {...form.register('terms')}
      />
      <Button type="submit" disabled={isSubmitting} className="mt-2 w-full py-3">
        {isSubmitting ? 'Creating your account…' : 'Create account'}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link
          to={`${role === 'business' ? '/business/login' : '/login'}${nextQuery(next)}`}
          className="font-semibold text-brand-700 hover:underline"
        >
          Log in
        </Link>
      </p>
    </form>
  );
}
