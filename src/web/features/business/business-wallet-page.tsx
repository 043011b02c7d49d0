import { Icon, icons, PageHeader } from '../../components/dashboard-shell';
import { BalanceCard } from './balance-card';

function NoBankAccount() {
  return (
    <p className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-6 text-slate-600">
      <Icon path={icons.bank} className="h-5 w-5 text-slate-500" />
      No bank account yet
    </p>
  );
}

/** Seed §2 business "Wallet": the balance and the bank accounts; adding accounts and withdrawals is later work. */
export default function BusinessWalletPage() {
  return (
    <>
      <PageHeader title="Wallet">Your available balance and the bank accounts you withdraw to.</PageHeader>
      <BalanceCard />

      <section aria-labelledby="default-bank" className="mt-8">
        <h2 id="default-bank" className="mb-3 text-lg font-semibold text-slate-900">
          Default Bank Account
        </h2>
        <NoBankAccount />
      </section>

      <section aria-labelledby="other-banks" className="mt-8">
        <h2 id="other-banks" className="mb-3 text-lg font-semibold text-slate-900">
          Other Bank Accounts
        </h2>
        <NoBankAccount />
      </section>

      <p className="mt-8 flex items-start gap-3 rounded-xl bg-brand-50 px-5 py-4 text-sm text-brand-900">
        <Icon path={icons.clock} className="mt-0.5 h-5 w-5 text-brand-700" />
        Adding bank accounts and withdrawing your balance open here soon.
      </p>
    </>
  );
}
