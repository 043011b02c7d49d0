export default function UserMyCardsPage() {
  return <h1 className="p-6 text-2xl font-bold">My Gift Cards</h1>;
}
