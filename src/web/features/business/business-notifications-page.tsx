import { NoNotifications, PageHeader } from '../../components/dashboard-shell';

/** Seed §2 business "Notification": no notifications exist yet, so the empty state shows. */
export default function BusinessNotificationsPage() {
  return (
    <>
      <PageHeader title="Notification" />
      <NoNotifications />
    </>
  );
}
