import { execSync } from 'node:child_process';
import { benchCatalogue } from './catalogue';
import { benchLighthouse } from './lighthouse';
import { benchNotifications } from './notifications';
import { benchPurchases } from './purchases';
import { benchRedemptions } from './redemptions';
import { benchSales } from './sales';
import { benchStartup } from './startup';
import { benchWithdrawals } from './withdrawals';

/**
 * `npm run bench`: speed targets are measured here, never in timed tests. Each benchmark prints a table.
 * Run on a quiet machine; the figures in issue notes come from this command.
 */
execSync('node scripts/ensure-build.mjs', { stdio: 'inherit' });
// The landing page's JavaScript, measured on the build the benchmarks run (also when nothing was rebuilt).
execSync('node scripts/report-bundle.mjs', { stdio: 'inherit' });

const benches: [string, () => Promise<Record<string, string>>][] = [
  ['Start-up', benchStartup],
  ['Catalogue', benchCatalogue],
  ['Purchases', benchPurchases],
  ['Withdrawals', benchWithdrawals],
  ['Redemptions', benchRedemptions],
  ['Notifications', benchNotifications],
  ['Sales', benchSales],
  ['Lighthouse', benchLighthouse],
];
const only = process.argv[2];
for (const [name, run] of benches) {
  const simple = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (only && !simple(name).includes(simple(only))) continue;
  console.log(`\n== ${name}`);
  console.table(await run());
}
