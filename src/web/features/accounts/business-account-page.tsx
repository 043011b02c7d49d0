import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { useGiftCardStore } from '../../lib/store';
import { cardKeys, listOwnCards } from '../catalogue/api';
import { LogoForm } from '../catalogue/logo-form';
import { TransactionPinRow } from '../wallet/transaction-pin-row';
import { DeleteAccountRow } from './delete-account-row';
import { ProfileForm } from './profile-form';
import { SecuritySettings } from './security-settings';

function Personal() {
  const business = useGiftCardStore((s) => s.bizClient);
  const name = business?.name ?? '';
  const businessId = business?.id ?? '';
  const created = useQuery({
    queryKey: [...cardKeys.own(businessId), 'count'],
    queryFn: () => listOwnCards(businessId, undefined, 'newest', 1),
    enabled: Boolean(businessId),
  });
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-col items-start gap-5 sm:flex-row sm:items-center">
        <LogoForm />
      </div>
      <div className="mt-6 min-w-0">
        <h2 className="truncate text-xl font-bold text-slate-900">{name}</h2>
        <p className="mt-1 text-sm font-semibold text-brand-700">
          {created.data ? `${created.data.total ?? 0} Giftcards Created` : 'Counting your gift cards…'}
        </p>
      </div>
      {business ? <ProfileForm key={business.id} account={business} /> : null}
    </div>
  );
}

const TABS = ['personal', 'security'] as const;

/**
 * Seed §2 business "Account": Personal and Security tabs. The tab and the PIN dialog live in the URL
 * (`?tab=security&pin=create`), so Home's Pending item "Set transaction pin" opens the form directly.
 */
export default function BusinessAccountPage() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'personal';
  const pinOpen = tab === 'security' && params.has('pin');

  function update(change: (next: URLSearchParams) => void) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <>
      <PageHeader title="Account" />
      <Tabs
        label="Account"
        selected={tab}
        onSelect={(id) =>
          update((next) => {
            next.set('tab', id);
            next.delete('pin');
          })
        }
        tabs={[
          { id: 'personal', label: 'Personal', panel: <Personal /> },
          {
            id: 'security',
            label: 'Security',
            panel: (
              <SecuritySettings
                deleteRow={<DeleteAccountRow />}
                pinRow={(icon) => (
                  <TransactionPinRow
                    icon={icon}
                    open={pinOpen}
                    onOpen={() =>
                      update((next) => {
                        next.set('tab', 'security');
                        next.set('pin', 'open');
                      })
                    }
                    onClose={() => update((next) => next.delete('pin'))}
                  />
                )}
              />
            ),
          },
        ]}
      />
    </>
  );
}
