import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatMoney } from '../../../shared/money';
import { Icon, icons } from '../../components/ui/icon';
import { PageHeader } from '../../components/ui/page-header';
import { useGiftCardStore } from '../../lib/store';
import { cardKeys, listOwnCards } from '../catalogue/api';
import { getWallet, walletQueryKey } from './api';
import { BalanceCard } from './balance-card';
import { OutstandingCard, SalesChartSection, SalesFigures } from './business-figures';

const TOP_GRADIENTS = ['from-amber-600 to-orange-700', 'from-emerald-700 to-teal-800'];

/** The set-up steps (seed §2 "Pending"): each links to where it is done and shows DONE once it is. */
const pending = [
  {
    key: 'pin',
    label: 'Set transaction pin',
    icon: icons.key,
    to: '/dashboard/account?tab=security&pin=create',
  },
  { key: 'bank', label: 'Add default bank', icon: icons.bank, to: '/dashboard/wallet?add-bank=1' },
] as const;

/**
 * Seed §2 business "Home": welcome, balance (beside what is still outstanding on sold cards), the day's and
 * month's sales and redemptions with a chart of the last 30 / 90 days, the two best-selling cards with their
 * real figures (the seed's "Top Gift Cards"), quick actions and the pending set-up steps.
 */
export default function BusinessHomePage() {
  const business = useGiftCardStore((s) => s.bizClient);
  const businessId = business?.id ?? '';
  const wallet = useQuery({ queryKey: walletQueryKey, queryFn: ({ signal }) => getWallet(signal) });
  const top = useQuery({
    queryKey: cardKeys.topOwn(businessId),
    queryFn: () => listOwnCards(businessId, undefined, 'best-selling', 2),
    enabled: Boolean(businessId),
  });
  return (
    <>
      <PageHeader title={`Welcome, ${business?.name ?? ''}`}>
        Here is how your business is doing on Giftmart.
      </PageHeader>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <BalanceCard />
        </div>
        <OutstandingCard />
      </div>

      <SalesFigures />
      <SalesChartSection />

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="top-gift-cards" className="lg:col-span-2">
          <h2 id="top-gift-cards" className="text-lg font-semibold text-slate-900">
            Top Gift Cards
          </h2>
          {/* The seed's promo line, now above the business's own best sellers. */}
          <p className="mt-1 text-sm text-slate-600">Trade gift cards for Fast Cash</p>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {TOP_GRADIENTS.map((gradient, index) => {
              const card = top.data?.items[index];
              const sold = card && card.soldCount > 0;
              return (
                <li key={gradient}>
                  <Link
                    to={
                      sold
                        ? `/dashboard/sales?giftCardId=${card.id}`
                        : card
                          ? `/dashboard/giftcard?tab=list#card-${card.id}`
                          : '/dashboard/giftcard'
                    }
                    className={`relative flex min-h-32 flex-col justify-between overflow-hidden rounded-2xl bg-gradient-to-br ${gradient} p-5 text-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600`}
                  >
                    <span
                      aria-hidden="true"
                      className="absolute -right-6 -top-6 h-28 w-28 rounded-full bg-white/15"
                    />
                    <span className="relative text-sm font-semibold text-white [text-shadow:0_1px_2px_rgb(0_0_0/0.35)]">
                      {card
                        ? sold
                          ? index === 0
                            ? 'Best seller'
                            : 'Runner-up'
                          : 'On sale'
                        : 'No card yet'}
                    </span>
                    <span className="relative mt-4 text-2xl font-bold tabular-nums [text-shadow:0_1px_2px_rgb(0_0_0/0.25)]">
                      {card
                        ? formatMoney(card.amount)
                        : index === 0
                          ? 'Create your first card'
                          : 'Create another card'}
                    </span>
                    <span className="relative mt-1 text-sm font-medium text-white [text-shadow:0_1px_2px_rgb(0_0_0/0.35)]">
                      {card
                        ? `${card.soldCount} sold · ${card.uniqueId}${sold ? ' · see its sales' : ''}`
                        : 'Design a card your customers can buy'}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
        <section
          aria-labelledby="quick-actions"
          className="self-start rounded-2xl border border-slate-200 bg-white p-6 shadow-sm lg:mt-11"
        >
          <h2 id="quick-actions" className="text-base font-semibold text-slate-900">
            Quick Actions
          </h2>
          <Link
            to="/dashboard/giftcard"
            className="mt-4 flex items-center gap-4 rounded-xl border border-slate-200 p-4 transition hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
              <Icon path={icons.gift} className="h-6 w-6" />
            </span>
            <span className="flex-1 font-semibold text-slate-900">Sell Gift Card</span>
            <Icon path={icons.arrowRight} className="h-5 w-5 text-slate-500" />
          </Link>
        </section>
      </div>

      <section
        aria-labelledby="pending"
        className="mt-8 rounded-2xl border border-slate-200 bg-white shadow-sm"
      >
        <h2 id="pending" className="px-6 pt-5 text-lg font-semibold text-slate-900">
          Pending
        </h2>
        <ul className="mt-2 divide-y divide-slate-100">
          {pending.map((item) => {
            const done = item.key === 'pin' ? wallet.data?.pinSet : Boolean(wallet.data?.defaultBankAccount);
            return (
              <li key={item.key}>
                <Link
                  to={item.to}
                  className="flex items-center gap-4 px-6 py-4 transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
                >
                  <span className="flex h-10 w-10 items-center justify-center rounded-full bg-slate-100 text-slate-700">
                    <Icon path={item.icon} />
                  </span>
                  <span className="flex-1 font-medium text-slate-900">{item.label}</span>
                  {done ? (
                    <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-bold tracking-wide text-emerald-900">
                      DONE
                    </span>
                  ) : (
                    <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-bold tracking-wide text-amber-900">
                      PENDING
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
