export default function UserCardPage() {
  return <h1 className="p-6 text-2xl font-bold">Gift card</h1>;
}
