export default function NotFoundPage() {
  return <h1 className="p-6 text-2xl font-bold">Page not found</h1>;
}
