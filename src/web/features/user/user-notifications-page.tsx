export default function UserNotificationsPage() {
  return <h1 className="p-6 text-2xl font-bold">Notifications</h1>;
}
