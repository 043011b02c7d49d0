import { useMemo } from 'react';
import { icons } from '../../components/ui/icon';
import { useGiftCardStore } from '../../lib/store';
import { DashboardShell, useMenuWithUnread, type NavItem } from './dashboard-shell';

/** A page with lines of text: the Orders item (issue 13). */
const RECEIPT_ICON =
  'M9 12h6m-6 4h6m2 5H7a2 2 0 01-2-2V5a2 2 0 012-2h5.586a1 1 0 01.707.293l5.414 5.414a1 1 0 01.293.707V19a2 2 0 01-2 2z';

/** Seed §2 "User dashboard": the sidebar items and their routes. */
const baseItems: NavItem[] = [
  { to: '/user-dashboard', label: 'Home', icon: icons.home, end: true },
  { to: '/user-dashboard/profile', label: 'My Profile', icon: icons.user },
  { to: '/user-dashboard/mycards', label: 'My Gift Cards', icon: icons.cards },
  { to: '/user-dashboard/orders', label: 'Orders', icon: RECEIPT_ICON },
  { to: '/user-dashboard/gifts', label: 'Gifts', icon: icons.gift },
  { to: '/user-dashboard/notify', label: 'Notifications', icon: icons.bell },
  { to: '/user-dashboard/support', label: 'Support', icon: icons.support },
];

export default function UserLayout() {
  const items = useMenuWithUnread(baseItems);
  const user = useGiftCardStore((s) => s.userData);
  const name = user?.name ?? '';
  const logoUrl = user?.logoUrl;
  const username = user?.username;
  // The same object while its fields are the same, so the shell (memo) is not drawn again for nothing.
  const account = useMemo(
    () => ({ name, logoUrl, caption: username ? `@${username}` : undefined }),
    [name, logoUrl, username],
  );
  return <DashboardShell role="user" navLabel="User dashboard" items={items} account={account} />;
}
