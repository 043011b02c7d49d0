import { EmptyState, icons, PageHeader } from '../../components/dashboard-shell';

/** Seed §2 "My Gift Cards": the seed's empty state, word for word. */
export default function UserMyCardsPage() {
  return (
    <>
      <PageHeader title="My Gift Cards" />
      <EmptyState
        sentence
        icon={icons.cards}
        title="Whoops! No Activity"
        text="You'll see your gift cards soon."
      />
    </>
  );
}
