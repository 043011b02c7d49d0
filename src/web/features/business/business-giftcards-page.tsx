export default function BusinessGiftCardsPage() {
  return <h1 className="p-6 text-2xl font-bold">Gift Cards</h1>;
}
