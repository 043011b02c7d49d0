import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PublicPageLayout, SupportEmailLink } from './public-page-layout';
import { usePublicConfig } from './use-public-config';

const TERMS_LAST_UPDATED = '21 November 2026';

interface Clause {
  id: string;
  title: string;
  body: ReactNode;
}

function clauses(email: ReactNode): Clause[] {
  return [
    {
      id: 'about',
      title: '1. About these terms',
      body: (
        <>
          <p>
            These terms explain the rules for using Giftmart, the gift-card marketplace at this address, and
            summarise how we handle your data. By creating an account or using Giftmart you agree to them. We
            have written them in plain language; if anything is unclear, ask us before you use the service.
          </p>
          <p>
            “We” and “Giftmart” mean the operator of Giftmart. “You” means anyone who uses it, whether as a
            user or as a business.
          </p>
        </>
      ),
    },
    {
      id: 'accounts',
      title: '2. Your account',
      body: (
        <ul>
          <li>
            You must be at least 18 years old, or have a parent or guardian’s permission, to open an account.
          </li>
          <li>
            The details you give us (name, username, e-mail and phone number) must be true and kept up to
            date.
          </li>
          <li>
            Keep your password and your transaction PIN to yourself. You are responsible for what happens in
            your account until you tell us it has been compromised.
          </li>
          <li>
            One person or business may hold one account of each kind. Accounts cannot be sold or transferred.
          </li>
        </ul>
      ),
    },
    {
      id: 'businesses',
      title: '3. Businesses selling on Giftmart',
      body: (
        <ul>
          <li>A business account must belong to a real business that you are allowed to represent.</li>
          <li>
            You may only sell gift cards for your own business, with a name and logo you have the right to
            use, and the card must show its true value in naira.
          </li>
          <li>
            You must honour every valid Giftmart card issued for your business, up to its remaining balance,
            in the same way you would accept cash. You may not charge extra for paying with a gift card.
          </li>
          <li>
            The money from a sale is yours once the payment is confirmed, so you are responsible for the goods
            or services the card is spent on, including any consumer complaints about them.
          </li>
          <li>
            If you plan to stop trading, tell us at least 30 days in advance so we can arrange for card
            holders to be looked after.
          </li>
        </ul>
      ),
    },
    {
      id: 'cards',
      title: '4. Gift cards and their validity',
      body: (
        <ul>
          <li>A card is issued only after our payment provider confirms the buyer’s payment.</li>
          <li>
            A card stays valid until its balance has been spent, unless the business chose a validity when it
            designed the card (1 to 60 months from the day the card is bought). The validity is shown before
            you pay and the expiry date on the card; an expired card can no longer be spent.
          </li>
          <li>
            A card can be used only at the business that issued it. It can be spent in parts, its balance
            never goes below zero, and it cannot be exchanged for cash.
          </li>
          <li>
            Whoever holds the secret redemption code can spend the card, so keep it private. A card can be
            sent as a gift; until its recipient accepts it the sender may cancel it, and once accepted it
            belongs to the recipient (with a new code), cannot be taken back and is no longer refundable.
          </li>
          <li>
            If a business closes with cards still unspent, contact us. We will work with the business to
            honour or refund the remaining balances wherever we can.
          </li>
        </ul>
      ),
    },
    {
      id: 'fees',
      title: '5. Payments, fees and payouts',
      body: (
        <ul>
          <li>Prices are in Nigerian naira (₦). Buyers pay the face value of the card.</li>
          <li>
            Giftmart’s platform fee is currently <strong>0%</strong> of each sale. If we introduce or change a
            fee, we will tell businesses at least 30 days before it applies, and it will never apply to cards
            already sold.
          </li>
          <li>
            Card payments are processed by our payment provider. We do not store your bank card details.
          </li>
          <li>
            Sales are credited to the business’s Giftmart wallet as soon as payment is confirmed. Withdrawals
            go only to a verified Nigerian bank account, need the business’s 4-digit transaction PIN, and must
            be at least ₦1,000.
          </li>
          <li>
            A card that has been spent, even in part, is not refundable. A business may refund a card that has
            never been used within 30 days of its sale; the card is then cancelled and the amount leaves the
            business’s wallet. A payment taken in error (for example a double charge, or a charge with no card
            issued) is refunded. Refunds go to the original payment method.
          </li>
          <li>
            We may hold a withdrawal or a card while we investigate suspected fraud, and reverse transactions
            that were made fraudulently or by mistake.
          </li>
        </ul>
      ),
    },
    {
      id: 'prohibited',
      title: '6. What you must not do',
      body: (
        <ul>
          <li>Use Giftmart for fraud, money laundering, or to pay for anything illegal.</li>
          <li>Buy cards with a bank card or account that is not yours or that you are not allowed to use.</li>
          <li>
            Resell, advertise or trade Giftmart cards outside Giftmart for profit, or sell cards for a
            business that is not yours.
          </li>
          <li>Try to guess, copy or steal other people’s card codes, passwords or PINs.</li>
          <li>
            Interfere with Giftmart, probe it for weaknesses without our permission, or use automated tools to
            scrape it.
          </li>
          <li>Impersonate another person or business, or upload a logo you do not have the right to use.</li>
        </ul>
      ),
    },
    {
      id: 'privacy',
      title: '7. Privacy: the data we keep and why',
      body: (
        <>
          <ul>
            <li>
              <strong>Account details</strong> (name, username, e-mail, phone number, business name and logo):
              to run your account, show your cards to the right people and contact you about them.
            </li>
            <li>
              <strong>Transaction records</strong> (purchases, spending, transfers and withdrawals, kept in a
              double-entry ledger): so every balance can be checked and explained, and because Nigerian law
              requires us to keep financial records.
            </li>
            <li>
              <strong>Bank account details</strong> for business payouts: to verify the account and pay you.
            </li>
            <li>
              <strong>Security data</strong> (sign-in times, IP address, failed sign-in attempts): to protect
              your account and stop fraud.
            </li>
          </ul>
          <p>
            Passwords and PINs are stored only as one-way hashes, so no one at Giftmart can read them. We do
            not sell your data. We share it only with the providers that help us run Giftmart (payments, bank
            verification, hosting and e-mail), with the business or user on the other side of a transaction as
            far as that transaction needs, and with authorities when the law requires it.
          </p>
          <p>
            We keep account details while your account is open, and transaction records for as long as the law
            requires after it closes. You can ask us for a copy of your data, or to correct or delete it,
            under the Nigeria Data Protection Act 2023.
          </p>
        </>
      ),
    },
    {
      id: 'ending',
      title: '8. Closing an account',
      body: (
        <p>
          You can ask us to delete your account at any time. Spend or send your cards first; a business should
          withdraw its wallet balance and must still honour cards it has sold. We may suspend or close an
          account that breaks these terms, and will tell you why unless the law or an investigation prevents
          it.
        </p>
      ),
    },
    {
      id: 'changes',
      title: '9. Changes and contact',
      body: (
        <>
          <p>
            We may update these terms as Giftmart grows. We will show the new date at the top of this page
            and, for important changes, tell you by e-mail or in the app before they take effect.
          </p>
          <p>
            Questions about these terms or your data? E-mail us at {email}. Many everyday questions are
            answered in the{' '}
            <Link
              to="/faqs"
              className="rounded font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              FAQs
            </Link>
            .
          </p>
        </>
      ),
    },
  ];
}

/** Public terms of use and privacy summary (/terms). */
export default function TermsPage() {
  return (
    <PublicPageLayout>
      <Terms />
    </PublicPageLayout>
  );
}

function Terms() {
  const config = usePublicConfig();
  const list = clauses(<SupportEmailLink email={config.data?.supportEmail} />);

  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        Terms of use and privacy
      </h1>
      <p className="mt-3 text-sm font-medium text-slate-600">Last updated: {TERMS_LAST_UPDATED}</p>

      <nav aria-label="Contents" className="mt-8 rounded-2xl border border-slate-200 bg-white p-5">
        <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Contents</h2>
        <ol className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
          {list.map((clause) => (
            <li key={clause.id}>
              <a
                href={`#${clause.id}`}
                className="rounded text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                {clause.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      {list.map((clause) => (
        <section
          key={clause.id}
          id={clause.id}
          aria-labelledby={`${clause.id}-title`}
          className="mt-10 scroll-mt-6"
        >
          <h2 id={`${clause.id}-title`} className="text-xl font-bold text-slate-900">
            {clause.title}
          </h2>
          <div className="mt-3 space-y-3 leading-7 text-slate-700 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5">
            {clause.body}
          </div>
        </section>
      ))}
    </article>
  );
}
