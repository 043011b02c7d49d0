export default function SupportPage() {
  return <h1 className="p-6 text-2xl font-bold">Customer Support</h1>;
}
