import { PageTabs } from '../../components/ui/page-tabs';

const tabs = [
  { to: '/dashboard/sales', label: 'Sales', end: true },
  { to: '/dashboard/sales/redemptions', label: 'Redemptions' },
];

/** The Sales menu item's two views: cards sold, and uses at the till. */
export function SalesNav() {
  return <PageTabs label="Sales and redemptions" tabs={tabs} />;
}
