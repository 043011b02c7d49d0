import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { redeemMessages, type BalanceCheck } from '../../../shared/cards/schemas';
import { formatMoney } from '../../../shared/money';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
import { checkBalance } from './api';
import { CodeField } from './code-field';
import { codeProblem, isComplete } from './code-input';
import { StatusBadge } from './status-badge';
import { ExpiryDate } from './expiry-date';

const notes: Record<BalanceCheck['status'], string | null> = {
  active: null,
  redeemed: 'This card has been used up.',
  expired: 'This card has expired and can no longer be spent.',
  void: 'This card was refunded and can no longer be spent.',
  frozen: 'Its holder froze this card: it cannot be spent until they unfreeze it.',
  blocked: 'The business blocked this card. Contact the business that issued it.',
  gift_pending:
    'This card is on its way to someone as a gift: it cannot be spent until the gift is accepted or returned.',
};

/**
 * /balance — anyone with a code sees what is left on it, its status and expiry, without signing in.
 * Every failure the server gives has one message (nothing to learn from guessing); a typo is caught here
 * by the check character, and the rate limit's message says when to try again.
 */
export default function BalancePage() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const check = useMutation({
    mutationFn: checkBalance,
    onError: (err) => {
      setError(
        err instanceof ApiError && (err.status === 429 || err.status === 0)
          ? err.message
          : redeemMessages.balanceNotFound,
      );
      inputRef.current?.focus();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    check.reset();
    const problem = codeProblem(code);
    if (problem) {
      setError(problem);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    check.mutate(code);
  }

  function change(next: string) {
    setCode(next);
    check.reset();
    setError(isComplete(next) ? codeProblem(next) : null);
  }

  const result = check.data;
  const note = result ? notes[result.status] : null;

  return (
    <div className="mx-auto max-w-xl">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Check a balance</h1>
      <p className="mt-3 text-lg text-slate-600">
        Type the code of a Giftmart gift card to see what is left on it and when it expires. You do not need
        to sign in.
      </p>

      <form
        onSubmit={submit}
        noValidate
        className="mt-8 flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <CodeField
          ref={inputRef}
          value={code}
          onChange={change}
          error={error}
          hint="The card’s owner finds it under My Gift Cards → the card → Show code."
        />
        <Button
          type="submit"
          className="self-start"
          disabled={check.isPending}
          aria-busy={check.isPending || undefined}
        >
          {check.isPending ? 'Checking…' : 'Check balance'}
        </Button>
      </form>

      <div aria-live="polite">
        {result ? (
          <section
            aria-labelledby="balance-result"
            className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
          >
            <h2 id="balance-result" className="text-sm font-medium text-slate-600">
              Balance
            </h2>
            <p className="mt-1 text-4xl font-extrabold tracking-tight text-slate-900 tabular-nums">
              {formatMoney(result.balance)}
            </p>
            {note ? <p className="mt-3 text-sm font-medium text-slate-700">{note}</p> : null}
            <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-4 border-t border-slate-100 pt-5">
              <div>
                <dt className="text-sm font-medium text-slate-600">Status</dt>
                <dd className="mt-1">
                  <StatusBadge status={result.status} />
                </dd>
              </div>
              <div>
                <dt className="text-sm font-medium text-slate-600">Expires</dt>
                <dd className="mt-1 text-slate-900">
                  <ExpiryDate expiresAt={result.expiresAt} />
                </dd>
              </div>
            </dl>
          </section>
        ) : null}
      </div>
    </div>
  );
}
