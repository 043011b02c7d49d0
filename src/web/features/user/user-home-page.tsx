import { EmptyState, icons, PageHeader } from '../../components/dashboard-shell';
import { useGiftCardStore } from '../../lib/store';

/** Seed §2 user home, "All Gift Cards": no card is on sale yet, so it says so. */
export default function UserHomePage() {
  const user = useGiftCardStore((s) => s.userData);
  return (
    <>
      <PageHeader title="All Gift Cards">
        Welcome, {user?.name}. Browse gift cards from businesses on Giftmart and shop at your favourite store.
      </PageHeader>
      <EmptyState
        icon={icons.gift}
        title="No gift cards on sale yet"
        text="Gift cards that businesses put on sale will appear here soon."
      />
    </>
  );
}
