import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { SupportIcon } from './support-icons';
import { usePublicConfig } from './use-public-config';

const rowClass =
  'relative flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow-md focus-within:border-brand-400';
// The row's one link stretches over the whole row, so the row is a single large target with a short link name.
const stretchedLink =
  'rounded after:absolute after:inset-0 after:rounded-2xl after:content-[""] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-600';

function RowIcon({ name }: { name: 'mail' | 'help' | 'document' | 'card' }) {
  return (
    <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
      <SupportIcon name={name} />
    </span>
  );
}

function Chevron() {
  return <SupportIcon name="chevronRight" className="h-5 w-5 shrink-0 text-slate-500" />;
}

/** Seed §2 "Support", inside both dashboards: e-mail, FAQs, Check a balance and Terms. */
export default function SupportPage() {
  return <SupportContent />;
}

/**
 * The Customer Support title and its rows; the dashboards' Support screen and the public /support page
 * (public-support-page.tsx) both show it.
 */
export function SupportContent() {
  const config = usePublicConfig();
  const email = config.data?.supportEmail;

  return (
    <>
      <PageHeader title="Customer Support">
        We are here to help with your cards, payments and withdrawals.
      </PageHeader>
      <ul className="max-w-3xl space-y-4">
        <li className={rowClass}>
          <RowIcon name="mail" />
          <div className="min-w-0 flex-1">
            <h2 className="text-lg font-semibold text-slate-900">
              {email ? (
                <a href={`mailto:${email}`} className={stretchedLink}>
                  Send us an email
                </a>
              ) : (
                'Send us an email'
              )}
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              Tell us what happened and include any payment or card reference.
            </p>
            {config.isPending ? (
              <p className="mt-1 text-sm text-slate-600" role="status">
                Loading our address…
              </p>
            ) : email ? (
              <p className="mt-1 text-sm font-medium break-all text-brand-700">{email}</p>
            ) : (
              <div className="relative z-10 mt-1 flex flex-wrap items-center gap-3 text-sm" role="alert">
                <span className="text-red-700">We could not load our e-mail address.</span>
                <button
                  type="button"
                  onClick={() => void config.refetch()}
                  className="rounded font-semibold text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  Try again
                </button>
              </div>
            )}
          </div>
          {email ? <Chevron /> : null}
        </li>
        <li className={rowClass}>
          <RowIcon name="help" />
          <div className="min-w-0 flex-1">
            <h2 className="text-lg font-semibold text-slate-900">
              <Link to="/faqs" className={stretchedLink}>
                FAQs
              </Link>
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              Quick answers about buying, spending, sending and getting paid.
            </p>
          </div>
          <Chevron />
        </li>
        <li className={rowClass}>
          <RowIcon name="card" />
          <div className="min-w-0 flex-1">
            <h2 className="text-lg font-semibold text-slate-900">
              <Link to="/balance" className={stretchedLink}>
                Check a balance
              </Link>
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              See what is left on any Giftmart card, its status and expiry, from its code.
            </p>
          </div>
          <Chevron />
        </li>
        <li className={rowClass}>
          <RowIcon name="document" />
          <div className="min-w-0 flex-1">
            <h2 className="text-lg font-semibold text-slate-900">
              <Link to="/terms" className={stretchedLink}>
                Terms
              </Link>
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              The rules of using Giftmart and how we look after your data.
            </p>
          </div>
          <Chevron />
        </li>
      </ul>
    </>
  );
}
