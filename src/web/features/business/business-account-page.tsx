import { Avatar, PageHeader, SecuritySettings, Tabs } from '../../components/dashboard-shell';
import { useGiftCardStore } from '../../lib/store';

/** Gift cards are not created yet, so every business has made none. */
const GIFT_CARDS_CREATED = 0;

function Personal() {
  const business = useGiftCardStore((s) => s.bizClient);
  const name = business?.name ?? '';
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-col items-start gap-5 sm:flex-row sm:items-center">
        <Avatar
          name={name}
          src={business?.logoUrl}
          alt={`${name} logo`}
          decorative={!business?.logoUrl}
          className="h-20 w-20 text-3xl"
        />
        <div className="min-w-0">
          <h2 className="truncate text-xl font-bold text-slate-900">{name}</h2>
          <p className="mt-1 text-sm font-semibold text-brand-700">
            {GIFT_CARDS_CREATED} Giftcards Created
          </p>
        </div>
      </div>
      <dl className="mt-6 divide-y divide-slate-100 border-t border-slate-100">
        <div className="grid gap-1 py-4 sm:grid-cols-3">
          <dt className="text-sm font-medium text-slate-600">Business name</dt>
          <dd className="break-words text-slate-900 sm:col-span-2">{name}</dd>
        </div>
        <div className="grid gap-1 py-4 sm:grid-cols-3">
          <dt className="text-sm font-medium text-slate-600">Email</dt>
          <dd className="break-words text-slate-900 sm:col-span-2">{business?.email}</dd>
        </div>
        <div className="grid gap-1 py-4 sm:grid-cols-3">
          <dt className="text-sm font-medium text-slate-600">Phone number</dt>
          <dd className="text-slate-900 tabular-nums sm:col-span-2">{business?.phoneNumber}</dd>
        </div>
      </dl>
    </div>
  );
}

/** Seed §2 business "Account": Personal and Security tabs. */
export default function BusinessAccountPage() {
  return (
    <>
      <PageHeader title="Account" />
      <Tabs
        label="Account"
        tabs={[
          { id: 'personal', label: 'Personal', panel: <Personal /> },
          { id: 'security', label: 'Security', panel: <SecuritySettings /> },
        ]}
      />
    </>
  );
}
