import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { Tabs } from '../../components/ui/tabs';
import { NewGiftCardForm } from './new-gift-card-form';
import { OwnCardsList } from './own-cards-list';

/** Seed §2 business "Gift Cards": New Gift Card (the default tab) and Gift Cards (the business's own). */
export default function BusinessGiftCardsPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'list' ? 'list' : 'new';
  const select = (id: string) => setParams(id === 'list' ? { tab: 'list' } : {}, { replace: true });
  return (
    <>
      <PageHeader title="Gift Cards">
        Design the gift cards your customers buy, and see every card you have sold.
      </PageHeader>
      <Tabs
        label="Gift cards"
        selected={tab}
        onSelect={select}
        tabs={[
          { id: 'new', label: 'New Gift Card', panel: <NewGiftCardForm /> },
          { id: 'list', label: 'Gift Cards', panel: <OwnCardsList onCreateFirst={() => select('new')} /> },
        ]}
      />
    </>
  );
}
