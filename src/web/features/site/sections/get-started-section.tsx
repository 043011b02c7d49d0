import { Icon, type IconName } from '../landing-icons';

const paths: {
  icon: IconName;
  title: string;
  text: string;
  to: string;
  action: string;
  featured?: boolean;
}[] = [
  {
    icon: 'gift',
    title: 'I want to buy or send gift cards',
    text: 'Create a free user account, browse cards from every business and keep them all in one place.',
    to: '/register',
    action: 'Sign up as a buyer',
  },
  {
    icon: 'store',
    title: 'I run a business',
    text: 'Register your business, design your first card in minutes and get paid into your Giftmart wallet with every sale.',
    to: '/business/register',
    action: 'Register your business',
    featured: true,
  },
  {
    icon: 'help',
    title: 'Not sure which account you need?',
    text: 'See the business and user accounts side by side and continue with the one that fits you.',
    to: '/select-account',
    action: 'Choose an account type',
  },
];

const secondaryLink =
  'inline-flex items-center gap-1.5 rounded-lg border border-brand-200 bg-white px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** Landing section 4: the ways in. */
export default function GetStartedSection() {
  return (
    <>
      <ul className="grid gap-6 md:grid-cols-3">
        {paths.map((path) => (
          <li
            key={path.to}
            className={`flex flex-col rounded-3xl p-7 ${
              path.featured
                ? 'bg-brand-700 text-white shadow-xl shadow-brand-900/20'
                : 'border border-slate-200 bg-white shadow-sm'
            }`}
          >
            <span
              className={`flex h-12 w-12 items-center justify-center rounded-xl ${
                path.featured ? 'bg-amber-300 text-brand-900' : 'bg-brand-100 text-brand-700'
              }`}
            >
              <Icon name={path.icon} />
            </span>
            <h3 className={`mt-5 text-xl font-bold ${path.featured ? 'text-white' : 'text-slate-900'}`}>
              {path.title}
            </h3>
            <p
              className={`mt-2 flex-1 text-sm leading-6 ${path.featured ? 'text-brand-100' : 'text-slate-600'}`}
            >
              {path.text}
            </p>
            <a
              href={path.to}
              className={`mt-6 inline-flex items-center justify-center gap-2 rounded-lg px-5 py-3 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 ${
                path.featured
                  ? 'bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white'
                  : 'bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-brand-600'
              }`}
            >
              {path.action}
              <Icon name="arrowRight" className="h-4 w-4" />
            </a>
          </li>
        ))}
      </ul>
      <div className="mt-10 flex flex-col items-center gap-4 rounded-2xl border border-brand-100 bg-brand-50 px-6 py-5 text-center md:flex-row md:justify-between md:text-left">
        <p className="text-slate-700">
          <span className="font-semibold text-slate-900">Already on Giftmart?</span> Sign in to see your cards
          or your wallet.
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <a href="/login" className={secondaryLink}>
            User login
          </a>
          <a href="/business/login" className={secondaryLink}>
            Business login
          </a>
          <a href="/faqs" className={secondaryLink}>
            Read the FAQs
          </a>
        </div>
      </div>
    </>
  );
}
