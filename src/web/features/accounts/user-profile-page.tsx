import { Avatar } from '../../components/ui/avatar';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { useGiftCardStore } from '../../lib/store';
import { DeleteAccountRow } from './delete-account-row';
import { ProfileForm } from './profile-form';
import { SecuritySettings } from './security-settings';

function Personal() {
  const user = useGiftCardStore((s) => s.userData);
  const name = user?.name ?? '';
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex items-center gap-5">
        <Avatar name={name} decorative className="h-20 w-20 text-3xl" />
        <div className="min-w-0">
          <h2 className="truncate text-xl font-bold text-slate-900">{name}</h2>
          {user?.username ? <p className="mt-1 truncate text-slate-600">@{user.username}</p> : null}
        </div>
      </div>
      {user ? <ProfileForm key={user.id} account={user} /> : null}
    </div>
  );
}

/** Seed §2 "My Profile": Personal and Security tabs. */
export default function UserProfilePage() {
  return (
    <>
      <PageHeader title="My Profile" />
      <Tabs
        label="My Profile"
        tabs={[
          { id: 'personal', label: 'Personal', panel: <Personal /> },
          { id: 'security', label: 'Security', panel: <SecuritySettings deleteRow={<DeleteAccountRow />} /> },
        ]}
      />
    </>
  );
}
