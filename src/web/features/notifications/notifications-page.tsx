import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icon';
import { PageHeader } from '../../components/ui/page-header';

/**
 * Seed §2 "Notification" (business) and "Notifications" (user): no notifications exist yet, so the same
 * empty state shows on both dashboards under each one's own title.
 */
export default function NotificationsPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title="Whoops! No Activity" text="You'll get new notifications soon" icon={icons.bell} />
    </>
  );
}
