export default function TermsPage() {
  return <h1 className="p-6 text-2xl font-bold">Terms</h1>;
}
