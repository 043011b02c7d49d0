export default function BusinessWalletPage() {
  return <h1 className="p-6 text-2xl font-bold">Wallet</h1>;
}
