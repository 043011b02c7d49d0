import { icons } from '../../components/ui/icon';
import { useGiftCardStore } from '../../lib/store';
import { DashboardShell, type NavItem } from './dashboard-shell';

/** Seed §2 "User dashboard": the sidebar items and their routes. */
const items: NavItem[] = [
  { to: '/user-dashboard', label: 'Home', icon: icons.home, end: true },
  { to: '/user-dashboard/profile', label: 'My Profile', icon: icons.user },
  { to: '/user-dashboard/mycards', label: 'My Gift Cards', icon: icons.cards },
  { to: '/user-dashboard/notify', label: 'Notifications', icon: icons.bell },
  { to: '/user-dashboard/support', label: 'Support', icon: icons.support },
];

export default function UserLayout() {
  const user = useGiftCardStore((s) => s.userData);
  return (
    <DashboardShell
      role="user"
      navLabel="User dashboard"
      items={items}
      account={{
        name: user?.name ?? '',
        logoUrl: user?.logoUrl,
        caption: user?.username ? `@${user.username}` : undefined,
      }}
    />
  );
}
