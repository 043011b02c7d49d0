import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { AddBankAccountDialog } from './add-bank-account-dialog';
import { BalanceCard } from './balance-card';
import { BankAccountSections } from './bank-account-sections';
import { WalletNav } from './wallet-nav';
import { WithdrawalHistory } from './withdrawal-history';

/**
 * Seed §2 business "Wallet": the balance, the default and other bank accounts (adding one opens the
 * "Add New bank account" dialog; `?add-bank=1`, linked from Home's Pending step, opens it on load).
 */
export default function BusinessWalletPage() {
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(() => params.get('add-bank') === '1');

  function closeAdd() {
    setAdding(false);
    if (params.has('add-bank')) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('add-bank');
          return next;
        },
        { replace: true },
      );
    }
  }

  return (
    <>
      <PageHeader title="Wallet">Your available balance and the bank accounts you withdraw to.</PageHeader>
      <WalletNav />
      <BalanceCard />

      <BankAccountSections onAdd={() => setAdding(true)} />
      <AddBankAccountDialog open={adding} onClose={closeAdd} />

      <div className="mt-10">
        <WithdrawalHistory />
      </div>
    </>
  );
}
