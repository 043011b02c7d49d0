import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/dashboard-shell';
import { AddBankAccountDialog } from '../bank-accounts/add-bank-account-dialog';
import { BankAccountSections } from '../bank-accounts/bank-account-sections';
import { WithdrawalHistory } from '../withdrawals/withdrawal-history';
import { BalanceCard } from './balance-card';

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
      <BalanceCard />

      <BankAccountSections onAdd={() => setAdding(true)} />
      <AddBankAccountDialog open={adding} onClose={closeAdd} />

      <div className="mt-10">
        <WithdrawalHistory />
      </div>
    </>
  );
}
