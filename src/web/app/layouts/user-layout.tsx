import { icons } from '../../components/ui/icon';
import { useUnreadCount } from '../../features/notifications/use-notifications-live';
import { useGiftCardStore } from '../../lib/store';
import { DashboardShell, withUnread, type NavItem } from './dashboard-shell';

/** Seed §2 "User dashboard": the sidebar items and their routes. */
const baseItems: NavItem[] = [
  { to: '/user-dashboard', label: 'Home', icon: icons.home, end: true },
  { to: '/user-dashboard/profile', label: 'My Profile', icon: icons.user },
  { to: '/user-dashboard/mycards', label: 'My Gift Cards', icon: icons.cards },
  { to: '/user-dashboard/gifts', label: 'Gifts', icon: icons.gift },
  { to: '/user-dashboard/notify', label: 'Notifications', icon: icons.bell },
  { to: '/user-dashboard/support', label: 'Support', icon: icons.support },
];

export default function UserLayout() {
  const unread = useUnreadCount().data ?? 0;
  const items = withUnread(baseItems, unread);
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
