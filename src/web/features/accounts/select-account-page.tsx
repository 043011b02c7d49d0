import { Link } from 'react-router';
import { Wordmark } from '../../components/ui/brand';

const choices = [
  {
    to: '/business/login',
    title: 'Login as a Business',
    text: 'make giftcards people can shop with for your business',
    icon: 'M3 21h18M5 21V7l7-4 7 4v14M9 21v-6h6v6',
  },
  {
    to: '/login',
    title: 'Login as a User',
    text: 'purchase giftcards from any business and shop at your favourite store',
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 14 0',
  },
];

/** Seed §2 "Select account": both choices, and a footer with the current year. */
export default function SelectAccountPage() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-white">
      <header className="px-6 py-5">
        <Wordmark to="/" />
      </header>
      <main className="flex flex-1 flex-col items-center justify-center px-5 py-10">
        <h1 className="text-center text-3xl font-bold text-slate-900">How will you use Giftmart?</h1>
        <p className="mt-3 text-center text-slate-600">
          Choose the kind of account you have or want to create.
        </p>
        <div className="mt-10 grid w-full max-w-3xl gap-6 sm:grid-cols-2">
          {choices.map((choice) => (
            <Link
              key={choice.to}
              to={choice.to}
              className="group rounded-2xl border border-slate-200 bg-white p-8 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span
                className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-700"
                aria-hidden="true"
              >
                <svg
                  viewBox="0 0 24 24"
                  className="h-7 w-7"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d={choice.icon} />
                </svg>
              </span>
              <h2 className="mt-5 text-xl font-bold text-slate-900 group-hover:text-brand-700">
                {choice.title}
              </h2>
              <p className="mt-2 text-slate-600">{choice.text}</p>
            </Link>
          ))}
        </div>
      </main>
      <footer className="py-6 text-center text-sm text-slate-600">
        © {new Date().getFullYear()} Giftmart. All rights reserved.
      </footer>
    </div>
  );
}
