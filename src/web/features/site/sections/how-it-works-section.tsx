import { Icon, type IconName } from '../landing-icons';

interface Track {
  icon: IconName;
  title: string;
  steps: { title: string; text: string }[];
}

const tracks: Track[] = [
  {
    icon: 'store',
    title: 'For businesses',
    steps: [
      {
        title: 'Register your business',
        text: 'Your business name, business e-mail and phone number. There is no sign-up fee.',
      },
      {
        title: 'Design your gift cards',
        text: 'Pick an amount in naira and a colour. Your logo and a unique code go on every card.',
      },
      {
        title: 'Sell to Giftmart buyers',
        text: 'Each sale is credited to your Giftmart wallet as soon as the payment is confirmed.',
      },
      {
        title: 'Withdraw to your bank',
        text: 'Withdraw from ₦1,000 to a verified Nigerian bank account with your 4-digit PIN.',
      },
    ],
  },
  {
    icon: 'user',
    title: 'For buyers',
    steps: [
      {
        title: 'Create a free account',
        text: 'Your name, a username, your e-mail and your phone number are all it takes.',
      },
      {
        title: 'Choose a card',
        text: 'Browse the cards of every business on Giftmart and pick the amount that suits you.',
      },
      {
        title: 'Pay securely',
        text: 'Pay through our payment provider. The card is yours once the payment is confirmed.',
      },
      {
        title: 'Spend it or send it',
        text: 'Redeem your secret code in one go or in parts, or send the card to someone you love.',
      },
    ],
  },
];

/** Landing section 2: the steps on each side of the marketplace. */
export default function HowItWorksSection() {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {tracks.map((track) => (
        <div key={track.title} className="rounded-3xl border border-slate-200 bg-white p-6 shadow-sm">
          <div className="flex items-center gap-3">
            <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
              <Icon name={track.icon} />
            </span>
            <h3 className="text-xl font-bold text-slate-900">{track.title}</h3>
          </div>
          <ol className="mt-5 space-y-4">
            {track.steps.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <div>
                  <h4 className="font-semibold text-slate-900">
                    <span className="sr-only">Step {index + 1}: </span>
                    {step.title}
                  </h4>
                  <p className="mt-0.5 text-sm leading-6 text-slate-600">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}
