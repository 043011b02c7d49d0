import { Icon, type IconName } from '../landing-icons';

const safeguards: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'shieldCheck',
    title: 'Payment confirmed first',
    text: 'A card is issued only after our payment provider confirms the money has arrived. No confirmed payment, no card.',
  },
  {
    icon: 'eyeOff',
    title: 'Codes only the owner sees',
    text: 'A card’s redemption code is shown only to its owner, masked until they reveal it. No one at Giftmart will ask for it.',
  },
  {
    icon: 'lock',
    title: 'PIN-protected withdrawals',
    text: 'Businesses withdraw only to verified bank accounts, and every withdrawal needs their 4-digit transaction PIN.',
  },
  {
    icon: 'ledger',
    title: 'Every naira accounted for',
    text: 'All money moves through a double-entry ledger: each debit has a matching credit, so balances always add up.',
  },
];

/** Landing section 3: why money and cards on Giftmart are safe. */
export default function SafetySection() {
  return (
    <ul className="grid gap-x-8 gap-y-6 sm:grid-cols-2">
      {safeguards.map((item) => (
        <li key={item.title} className="flex gap-4">
          <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-amber-300 text-brand-900">
            <Icon name={item.icon} />
          </span>
          <div>
            <h3 className="text-lg font-bold text-white">{item.title}</h3>
            <p className="mt-1 text-sm leading-6 text-brand-100">{item.text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
