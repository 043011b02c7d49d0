import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { LoadError } from '../../components/ui/load-more';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api';
import { CodeField } from './code-field';
import { codeProblem, isComplete } from './code-input';
import { QrScan } from './qr-scan';
import { RedeemForm } from './redeem-form';
import { CardActions, RecentUses, SoldCardSummary } from './sold-card-view';
import { getSoldCard, lookUpCard, soldCardKeys } from './till-api';
import { TillNav } from './till-nav';

/**
 * /dashboard/redeem — the till. The cashier types or pastes the customer's code (a typo is caught by the
 * check character before anything is sent) or scans the QR on the customer's card page; the look-up shows
 * the card, and the cashier takes part or all of its balance. The code stays in this page's memory only:
 * never in the address, never stored.
 */
export default function RedeemPage() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const [found, setFound] = useState<{ id: string; code: string } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const lookup = useMutation({
    mutationFn: lookUpCard,
    onSuccess: (card, looked) => {
      queryClient.setQueryData(soldCardKeys.one(card.id), card);
      setFound({ id: card.id, code: looked });
    },
    onError: (err) => {
      setCodeError(
        err instanceof ApiError ? err.message : 'The code could not be looked up. Please try again.',
      );
      inputRef.current?.focus();
    },
  });

  function lookUp(value: string) {
    const problem = codeProblem(value);
    setFound(null);
    if (problem) {
      setCodeError(problem);
      inputRef.current?.focus();
      return;
    }
    setCodeError(null);
    lookup.mutate(value);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    lookUp(code);
  }

  function change(next: string) {
    setCode(next);
    if (found) setFound(null);
    // A complete code with a wrong check character is a typo: say so at once, before any look-up.
    const problem = isComplete(next) ? codeProblem(next) : null;
    setCodeError(problem);
  }

  function scanned(value: string) {
    setScanning(false);
    setCode(value);
    lookUp(value);
  }

  function another() {
    setFound(null);
    setCode('');
    setCodeError(null);
    lookup.reset();
    requestAnimationFrame(() => inputRef.current?.focus());
  }

  return (
    <>
      <PageHeader title="Redeem a gift card">
        Type or scan the customer’s gift card code, then take part or all of its balance.
      </PageHeader>
      <TillNav />

      <form
        onSubmit={submit}
        noValidate
        aria-label="Card look-up"
        className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <div className="flex flex-col gap-3 md:flex-row md:items-start">
          <div className="min-w-0 flex-1">
            <CodeField
              ref={inputRef}
              value={code}
              onChange={change}
              error={codeError}
              hint="Case, spaces and dashes do not matter. The last character is a check character."
            />
          </div>
          <div className="grid grid-cols-2 gap-3 md:mt-7 md:flex">
            <Button type="submit" disabled={lookup.isPending} aria-busy={lookup.isPending || undefined}>
              {lookup.isPending ? 'Looking up…' : 'Look up'}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setFound(null);
                setScanning((on) => !on);
              }}
              aria-pressed={scanning}
            >
              <Icon path={icons.scan} className="h-4 w-4" />
              Scan
            </Button>
          </div>
        </div>
        {scanning ? (
          <div className="mt-5">
            <QrScan onCode={scanned} onCancel={() => setScanning(false)} />
          </div>
        ) : null}
      </form>

      {found ? <FoundCard cardId={found.id} code={found.code} onAnother={another} /> : null}
    </>
  );
}

function FoundCard({ cardId, code, onAnother }: { cardId: string; code: string; onAnother: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const card = useQuery({
    queryKey: soldCardKeys.one(cardId),
    queryFn: ({ signal }) => getSoldCard(cardId, signal),
  });

  // Screen-reader and keyboard users land on the result of their look-up.
  useEffect(() => {
    headingRef.current?.focus();
  }, [cardId]);

  return (
    <section aria-labelledby="found-title" className="mt-8">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2
          id="found-title"
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-bold text-slate-900 focus:outline-none"
        >
          Card found
        </h2>
        <Button variant="ghost" onClick={onAnother}>
          Look up another code
        </Button>
      </div>
      {card.isPending ? (
        <p role="status" className="py-6 text-slate-600">
          Loading the card…
        </p>
      ) : card.isError ? (
        <LoadError
          title="We couldn’t load this card."
          message={card.error.message}
          onRetry={() => card.refetch()}
          retrying={card.isFetching}
        />
      ) : (
        <div className="flex flex-col gap-6">
          <SoldCardSummary card={card.data} />
          <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            {card.data.status === 'active' ? <RedeemForm card={card.data} code={code} /> : null}
            <RecentUses card={card.data} />
          </div>
          <CardActions card={card.data} />
        </div>
      )}
    </section>
  );
}
