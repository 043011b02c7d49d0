export default function UserHomePage() {
  return <h1 className="p-6 text-2xl font-bold">All Gift Cards</h1>;
}
