import { EmptyState, icons, PageHeader } from '../../components/dashboard-shell';

/** Seed §2 business "Gift Cards": designing and selling cards is later work; nothing here pretends to work. */
export default function BusinessGiftCardsPage() {
  return (
    <>
      <PageHeader title="Gift Cards">Design the gift cards your customers buy, and see every card you have sold.</PageHeader>
      <EmptyState
        icon={icons.gift}
        title="Designing and selling gift cards opens here soon"
        text="You will be able to choose an amount and a colour for each card, put it on sale, and follow the cards you have created."
      />
    </>
  );
}
