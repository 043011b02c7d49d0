import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PublicPageLayout, SupportEmailLink } from './public-page-layout';
import { usePublicConfig } from './use-public-config';

interface Faq {
  question: string;
  answer: ReactNode;
}

const inlineLink =
  'rounded font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

function groups(email: ReactNode): { title: string; faqs: Faq[] }[] {
  return [
    {
      title: 'About Giftmart',
      faqs: [
        {
          question: 'What is Giftmart?',
          answer: (
            <>
              <p>
                Giftmart is a Nigerian gift-card marketplace. Businesses (shops, restaurants, salons,
                supermarkets, online sellers) design gift cards with their own logo and colour and sell them
                on Giftmart. People buy those cards in naira, keep them in their account, spend them at the
                business and send them to friends and family.
              </p>
              <p>
                There are two kinds of account: a <strong>user</strong> account for buying, keeping, spending
                and sending cards, and a <strong>business</strong> account for creating and selling them.
              </p>
            </>
          ),
        },
        {
          question: 'Does it cost anything to use Giftmart?',
          answer: (
            <p>
              Creating an account is free. A buyer pays the value of the card: a ₦10,000 card costs ₦10,000.
              Giftmart’s platform fee for businesses is currently 0%, so a business receives the full price of
              every card it sells. If that ever changes, we will tell businesses before the new fee applies,
              and it will never apply to cards already sold.
            </p>
          ),
        },
      ],
    },
    {
      title: 'Buying and using cards',
      faqs: [
        {
          question: 'How does buying a gift card work?',
          answer: (
            <>
              <ol className="list-decimal space-y-1 pl-5">
                <li>Sign in to your user account and open All Gift Cards.</li>
                <li>Choose a card from any business on Giftmart.</li>
                <li>
                  Pay through our payment provider with your card, bank transfer or another method the
                  provider offers.
                </li>
                <li>
                  As soon as the provider confirms the payment, the card is issued to you and appears in My
                  Gift Cards.
                </li>
              </ol>
              <p>
                We never issue a card before the payment is confirmed. If the payment fails, no card is
                issued. If you were debited but no card appeared, contact support with your payment reference
                and we will sort it out.
              </p>
            </>
          ),
        },
        {
          question: 'Is my card safe?',
          answer: (
            <>
              <p>
                Yes. Every card has a secret redemption code, and only its owner can see it. In My Gift Cards
                the code is shown masked, for example <span className="font-mono">•••• •••• 7Q4K</span>, until
                you choose to reveal it. No one else can see it in Giftmart: not other users, and not the
                business that issued the card.
              </p>
              <p>
                Treat the code like cash: anyone who has it can spend the card. Never share it with anyone who
                is not redeeming it for you. Giftmart staff will never ask for your code, your password or
                your PIN.
              </p>
            </>
          ),
        },
        {
          question: 'How do I pay with my card at the business?',
          answer: (
            <>
              <ol className="list-decimal space-y-1 pl-5">
                <li>Open the card in My Gift Cards and choose Show code.</li>
                <li>
                  Let the cashier scan the QR code on your screen, or read them the code. The cashier sees the
                  card’s balance and takes what you are paying.
                </li>
                <li>
                  The rest stays on the card. Every use appears in the card’s history with where it was used,
                  the till reference and the balance after it.
                </li>
              </ol>
              <p>
                If a cashier takes an amount by mistake, the business can reverse it within 24 hours: the
                money goes back on the card and the history shows the use as reversed.
              </p>
            </>
          ),
        },
        {
          question: 'Can I spend a card in parts?',
          answer: (
            <p>
              Yes. You do not have to use the whole value at once. If you have a ₦20,000 card and spend
              ₦7,500, the card keeps ₦12,500 for next time. The balance can never go below zero: a purchase
              larger than what is left on the card is declined, and you can pay the difference another way at
              the business.
            </p>
          ),
        },
        {
          question: 'How do I check what is left on a card?',
          answer: (
            <p>
              Your cards show their balance in My Gift Cards. Anyone with a card’s code can also check its
              balance, status and expiry date on{' '}
              <Link to="/balance" className={inlineLink}>
                Check a balance
              </Link>
              , without signing in.
            </p>
          ),
        },
        {
          question: 'Someone used my card, or I lost my code. What do I do?',
          answer: (
            <>
              <p>
                Open the card in My Gift Cards and choose <strong>Freeze card</strong>. Nobody can spend a
                frozen card until you unfreeze it, and you can unfreeze it yourself at any time.
              </p>
              <p>
                You can also ask the business that issued the card to block it. A blocked card cannot be spent
                until the business unblocks it.
              </p>
            </>
          ),
        },
        {
          question: 'Can I send a card to someone else?',
          answer: (
            <p>
              Yes. Open the card in My Gift Cards and choose Send as a gift: their e-mail address or Giftmart
              username, their name, a message and, if you like, when it should arrive. You can also choose Buy
              as a gift when you buy a card. Someone not on Giftmart yet gets an e-mail with a link to accept
              it. Until they accept, the card waits (nobody can spend it) and you can cancel the gift or
              correct the address. When they accept, the card moves to their account with its remaining
              balance and a new code, so a code you saw before no longer works. If they decline, or do not
              accept within 30 days, the card comes back to you.
            </p>
          ),
        },
        {
          question: 'Do gift cards expire?',
          answer: (
            <p>
              It depends on the card. When a business designs a card it chooses either no expiry or a validity
              of 1 to 60 months from the day the card is bought. You see the validity on the card before you
              pay, and the expiry date on the card in My Gift Cards. An expired card can no longer be spent. A
              card can only be used at the business that issued it and cannot be exchanged for cash. See the{' '}
              <Link to="/terms" className={inlineLink}>
                Terms
              </Link>{' '}
              for what happens if a business stops trading.
            </p>
          ),
        },
        {
          question: 'Can I get a refund?',
          answer: (
            <>
              <p>
                A gift card is like cash, so a card that has been spent, even in part, cannot be refunded. A
                business can refund a card that has never been used within 30 days of its sale: the money goes
                back to the way you paid and the card is cancelled.
              </p>
              <p>
                If something went wrong, for example you were charged but no card appeared, you were charged
                twice, or a business refused a valid card, contact support with your payment reference. We
                will investigate, and any payment made in error is refunded to the method you paid with.
              </p>
            </>
          ),
        },
      ],
    },
    {
      title: 'For businesses',
      faqs: [
        {
          question: 'How does my business get paid?',
          answer: (
            <>
              <p>
                Every sale is credited to your Giftmart wallet at once, as soon as the buyer’s payment is
                confirmed. You do not wait for the customer to spend the card: the money is yours from the
                moment of sale, and you honour the card when the customer redeems it.
              </p>
              <p>To move money to your bank:</p>
              <ol className="list-decimal space-y-1 pl-5">
                <li>Create your 4-digit transaction PIN under Account, then Security.</li>
                <li>In Wallet, add a Nigerian bank account. It is verified before you can withdraw to it.</li>
                <li>Choose Withdraw, enter the amount and confirm with your PIN.</li>
              </ol>
              <p>You can follow every withdrawal in your Withdrawal History.</p>
            </>
          ),
        },
        {
          question: 'Is there a minimum withdrawal?',
          answer: (
            <p>
              Yes, the minimum withdrawal is ₦1,000, and you can withdraw up to your available wallet balance.
              Withdrawals go only to a verified Nigerian bank account and always need your transaction PIN, so
              nobody can move your money with your password alone.
            </p>
          ),
        },
        {
          question: 'How do I create a gift card for my business?',
          answer: (
            <p>
              In your business dashboard, open Gift Cards and stay on the New Gift Card tab. Enter the amount
              in naira, choose a colour and a validity (no expiry, or 1 to 60 months from the day each card is
              bought), and select Create Card. Your business name and logo are added automatically, and the
              card gets its own unique code. You can update your logo at any time under Account.
            </p>
          ),
        },
        {
          question: 'How do I redeem a customer’s card at the till?',
          answer: (
            <>
              <ol className="list-decimal space-y-1 pl-5">
                <li>In your business dashboard, open Redeem.</li>
                <li>
                  Type or paste the customer’s code (capitals, spaces and dashes do not matter), or choose
                  Scan and point your device’s camera at the QR code on the customer’s card. A mistyped code
                  is caught before it is looked up.
                </li>
                <li>
                  Check the card’s balance, status and expiry, enter the amount the customer is paying or
                  choose Redeem all, add your till reference if you like, and confirm.
                </li>
                <li>
                  The receipt shows the amount taken, the balance left, the time and your reference. The rest
                  stays on the card for next time.
                </li>
              </ol>
              <p>
                Took the wrong amount? Open the receipt and choose Reverse within 24 hours: the amount goes
                back on the card. Only your own business’s cards can be redeemed at your till.
              </p>
            </>
          ),
        },
        {
          question: 'A customer lost their card, or wants their money back. What can my business do?',
          answer: (
            <p>
              Open Redeem, then Sold cards, and search by the last four characters of the card’s code. You can
              block a card reported lost or stolen (nobody can spend it until you unblock it), and refund a
              card that has never been used within 30 days of its sale: the buyer gets the money back and the
              same amount leaves your wallet.
            </p>
          ),
        },
      ],
    },
    {
      title: 'Help',
      faqs: [
        {
          question: 'How do I contact support?',
          answer: (
            <>
              <p>
                E-mail us at {email}. Write from the address on your Giftmart account and tell us what
                happened; for a payment or a withdrawal, include the amount, the date and the reference, which
                helps us answer faster.
              </p>
              <p>
                If you are signed in, you can also reach us from Support in your dashboard. Please never send
                us your password, your PIN or a card’s secret code.
              </p>
            </>
          ),
        },
      ],
    },
  ];
}

const slug = (title: string) => `faq-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** Public FAQs (/faqs). */
export default function FaqsPage() {
  return (
    <PublicPageLayout>
      <Faqs />
    </PublicPageLayout>
  );
}

function Faqs() {
  const config = usePublicConfig();
  const email = <SupportEmailLink email={config.data?.supportEmail} />;

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
        Frequently asked questions
      </h1>
      <p className="mt-3 text-lg text-slate-600">
        Everything about buying, keeping, spending and sending gift cards on Giftmart, and how businesses
        redeem cards and get paid. Amounts are in naira (₦).
      </p>

      {groups(email).map((group) => (
        <section key={group.title} className="mt-10" aria-labelledby={slug(group.title)}>
          <h2 id={slug(group.title)} className="text-xl font-bold text-slate-900">
            {group.title}
          </h2>
          <div className="mt-4 space-y-3">
            {group.faqs.map((faq) => (
              <details
                key={faq.question}
                className="group rounded-2xl border border-slate-200 bg-white shadow-sm open:border-brand-200 open:shadow-md"
              >
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 font-semibold text-slate-900 marker:hidden hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
                  {faq.question}
                  <span
                    aria-hidden="true"
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-lg leading-none text-brand-700 transition group-open:rotate-45"
                  >
                    +
                  </span>
                </summary>
                <div className="space-y-3 px-5 pb-5 leading-7 text-slate-700">{faq.answer}</div>
              </details>
            ))}
          </div>
        </section>
      ))}

      <p className="mt-12 rounded-2xl bg-brand-50 p-5 text-slate-700">
        Still need help? E-mail us at {email}, or read the{' '}
        <Link to="/terms" className={inlineLink}>
          Terms
        </Link>
        .
      </p>
    </div>
  );
}
