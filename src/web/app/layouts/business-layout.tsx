import { useMemo } from 'react';
import { icons } from '../../components/ui/icon';
import { useGiftCardStore } from '../../lib/store';
import { DashboardShell, useMenuWithUnread, type NavItem } from './dashboard-shell';

/** A bar chart, for Sales. */
const SALES_ICON = 'M4 20h16M7 16v-5m5 5V7m5 9v-8';

/** Seed §2 "Business dashboard": the menu items and their routes. */
const baseItems: NavItem[] = [
  { to: '/dashboard', label: 'Home', icon: icons.home, end: true },
  { to: '/dashboard/giftcard', label: 'Gift Cards', icon: icons.gift },
  // The till: redeem a code, and the cards sold (its second tab, /dashboard/sold-cards).
  { to: '/dashboard/redeem', label: 'Redeem', icon: icons.scan, alsoActiveUnder: ['/dashboard/sold-cards'] },
  // Sales and its second tab, Redemptions (/dashboard/sales/redemptions), with their figures and exports.
  { to: '/dashboard/sales', label: 'Sales', icon: SALES_ICON },
  { to: '/dashboard/wallet', label: 'Wallet', icon: icons.wallet },
  { to: '/dashboard/notify', label: 'Notification', icon: icons.bell },
  { to: '/dashboard/support', label: 'Support', icon: icons.support },
  { to: '/dashboard/account', label: 'Account', icon: icons.account },
];

export default function BusinessLayout() {
  const items = useMenuWithUnread(baseItems);
  const business = useGiftCardStore((s) => s.bizClient);
  const name = business?.name ?? '';
  const logoUrl = business?.logoUrl;
  // The same object while its fields are the same, so the shell (memo) is not drawn again for nothing.
  const account = useMemo(() => ({ name, logoUrl, caption: 'Business account' }), [name, logoUrl]);
  return <DashboardShell role="business" navLabel="Business dashboard" items={items} account={account} />;
}
