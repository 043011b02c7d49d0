export default function BusinessAccountPage() {
  return <h1 className="p-6 text-2xl font-bold">Account</h1>;
}
