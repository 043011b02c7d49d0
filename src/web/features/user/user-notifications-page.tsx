import { NoNotifications, PageHeader } from '../../components/dashboard-shell';

/** Seed §2 user "Notifications": no notifications exist yet, so the empty state shows. */
export default function UserNotificationsPage() {
  return (
    <>
      <PageHeader title="Notifications" />
      <NoNotifications />
    </>
  );
}
