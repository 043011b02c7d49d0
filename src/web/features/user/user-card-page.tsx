import { useParams } from 'react-router';
import { EmptyState, Icon, icons, PageHeader } from '../../components/dashboard-shell';
import { ButtonLink } from '../../components/ui/button';

/** Seed §2 card detail (/user-dashboard/card/:id): cards cannot be shown yet, and the page says so. */
export default function UserCardPage() {
  const { id = '' } = useParams();
  return (
    <>
      <PageHeader title="Gift card" />
      <EmptyState
        icon={icons.gift}
        title="This gift card can’t be shown yet"
        text="Gift card details open here soon. Until then there is nothing to show or buy on this page."
      >
        <div className="flex flex-col items-center gap-4">
          {id ? (
            <p className="text-sm text-slate-600">
              Card reference:{' '}
              <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-slate-800">{id}</code>
            </p>
          ) : null}
          <ButtonLink to="/user-dashboard">
            <Icon path={icons.arrowLeft} className="h-4 w-4" />
            Back to All Gift Cards
          </ButtonLink>
        </div>
      </EmptyState>
    </>
  );
}
