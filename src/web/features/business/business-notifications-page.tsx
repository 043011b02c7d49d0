export default function BusinessNotificationsPage() {
  return <h1 className="p-6 text-2xl font-bold">Notification</h1>;
}
