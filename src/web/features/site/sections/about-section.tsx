import { Icon, type IconName } from '../landing-icons';

const uses: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'cart',
    title: 'Buy',
    text: 'Pick a card from any business on Giftmart and pay in naira. It is yours the moment the payment is confirmed.',
  },
  {
    icon: 'wallet',
    title: 'Keep',
    text: 'Every card you own waits in My Gift Cards with its balance and a secret redemption code that only you can see.',
  },
  {
    icon: 'spend',
    title: 'Spend',
    text: 'Use a card all at once or a little at a time. Each purchase lowers the balance, and it never drops below zero.',
  },
  {
    icon: 'send',
    title: 'Send',
    text: 'Give a card to a friend, a colleague or family. It moves to their account with its remaining balance.',
  },
];

const audiences: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'store',
    title: 'For businesses',
    text: 'Restaurants, supermarkets, fashion stores, salons, bookshops and online sellers turn gift cards into money in advance and customers who come back.',
  },
  {
    icon: 'gift',
    title: 'For gift givers',
    text: 'A gift card never comes in the wrong size or colour. The person you give it to chooses exactly what they want.',
  },
];

/** Landing section 1: what Giftmart is and what you can do with a card. */
export default function AboutSection() {
  return (
    <div className="grid gap-10 lg:grid-cols-5 lg:items-start">
      <div className="space-y-5 text-base leading-7 text-slate-700 lg:col-span-2">
        <p>
          Giftmart is a marketplace for gift cards issued by real Nigerian businesses. A business designs a
          card in its own colour, with its own logo, chooses its value in naira and puts it on sale. Anyone
          with a Giftmart account can buy it, keep it, spend it at that business or pass it on.
        </p>
        <ul className="space-y-4">
          {audiences.map((item) => (
            <li key={item.title} className="flex gap-4 rounded-2xl border border-slate-200 bg-slate-50 p-5">
              <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
                <Icon name={item.icon} />
              </span>
              <div>
                <h3 className="font-bold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-600">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div className="lg:col-span-3">
        <h3 className="sr-only">What you can do with a Giftmart card</h3>
        <ul className="grid gap-5 sm:grid-cols-2">
          {uses.map((use, index) => (
            <li
              key={use.title}
              className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span
                className="absolute top-3 right-5 text-6xl leading-none font-black text-brand-50 select-none"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <span className="relative flex h-12 w-12 items-center justify-center rounded-xl bg-brand-600 text-white">
                <Icon name={use.icon} />
              </span>
              <h3 className="relative mt-4 text-xl font-bold text-slate-900">{use.title}</h3>
              <p className="relative mt-2 text-sm leading-6 text-slate-600">{use.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
