export default function FaqsPage() {
  return <h1 className="p-6 text-2xl font-bold">FAQs</h1>;
}
