import { PageTabs } from '../../components/ui/page-tabs';

const tabs = [
  { to: '/dashboard/wallet', label: 'Overview', end: true },
  { to: '/dashboard/wallet/statement', label: 'Statement' },
];

/** The wallet's two views: balance and banks, and the statement. */
export function WalletNav() {
  return <PageTabs label="Wallet views" tabs={tabs} />;
}
