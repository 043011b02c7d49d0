import { PageTabs } from '../../components/ui/page-tabs';

const tabs = [
  { to: '/dashboard/redeem', label: 'Redeem', end: true },
  { to: '/dashboard/sold-cards', label: 'Sold cards' },
];

/** The till's two views: redeem a code, and the cards sold. */
export function TillNav() {
  return <PageTabs label="Redeem and sold cards" tabs={tabs} />;
}
