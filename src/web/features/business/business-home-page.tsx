export default function BusinessHomePage() {
  return <h1 className="p-6 text-2xl font-bold">Home</h1>;
}
