import type { ReactNode } from 'react';
import { Wordmark } from '../../components/ui/brand';

/** Split screen for sign-in and sign-up: a brand panel on wide screens, the form always. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen">
      <aside className="hidden w-5/12 flex-col justify-between bg-gradient-to-br from-brand-700 via-brand-600 to-violet-600 p-10 text-white lg:flex">
        <Wordmark to="/" light />
        <div>
          <p className="text-3xl font-bold leading-tight">
            Gift cards people love to give, and businesses love to sell.
          </p>
          <p className="mt-4 text-brand-100">
            Buy a card from any business in minutes, keep it safe in your account, and spend or send it
            whenever you like.
          </p>
        </div>
        <p className="text-sm text-brand-200">
          Payments are confirmed by our provider before a card is issued.
        </p>
      </aside>
      <main className="flex flex-1 items-center justify-center px-5 py-10">
        <div className="w-full max-w-md">
          <div className="mb-8 lg:hidden">
            <Wordmark to="/" />
          </div>
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          <p className="mt-2 text-slate-600">{subtitle}</p>
          <div className="mt-8">{children}</div>
        </div>
      </main>
    </div>
  );
}
