import { CARD_TILE } from '../../lib/constants';

const { width: W, height: H } = CARD_TILE;

interface CardArt {
  gradient: string;
  business: string;
  initial: string;
  amount: string;
  code: string;
  transform: string;
}

// Fanned like cards in a wallet: each card behind shows its business above the one in front.
const cards: CardArt[] = [
  {
    gradient: 'gm-hero-teal',
    business: 'Lekki Books',
    initial: 'L',
    amount: '₦10,000',
    code: '•••• •••• 2M8D',
    transform: 'translate(30 70) rotate(-6)',
  },
  {
    gradient: 'gm-hero-amber',
    business: 'Ada’s Kitchen',
    initial: 'A',
    amount: '₦15,000',
    code: '•••• •••• 9KQ3',
    transform: 'translate(90 140) rotate(-6)',
  },
  {
    gradient: 'gm-hero-indigo',
    business: 'Zuma Fashion',
    initial: 'Z',
    amount: '₦25,000',
    code: '•••• •••• 7Q4K',
    transform: 'translate(150 210) rotate(-6)',
  },
];

function Card({ card }: { card: CardArt }) {
  return (
    <g transform={card.transform}>
      <rect width={W} height={H} rx="16" fill="#0f172a" opacity="0.16" transform="translate(5 9)" />
      <rect width={W} height={H} rx="16" fill={`url(#${card.gradient})`} />
      {/* ribbon and bow */}
      <rect x={W - 70} width="16" height={H} fill="#fff" opacity="0.22" />
      <rect y="62" width={W} height="12" fill="#fff" opacity="0.18" />
      <ellipse
        cx={W - 76}
        cy="62"
        rx="14"
        ry="8"
        fill="#fff"
        opacity="0.55"
        transform={`rotate(-25 ${W - 76} 62)`}
      />
      <ellipse
        cx={W - 48}
        cy="62"
        rx="14"
        ry="8"
        fill="#fff"
        opacity="0.55"
        transform={`rotate(25 ${W - 48} 62)`}
      />
      <circle cx={W - 62} cy="68" r="6" fill="#fff" opacity="0.9" />
      {/* business */}
      <circle cx="34" cy="34" r="16" fill="#fff" />
      <text x="34" y="40" textAnchor="middle" fontSize="17" fontWeight="800" fill="#312e81">
        {card.initial}
      </text>
      <text x="58" y="39" fontSize="14" fontWeight="700" fill="#fff">
        {card.business}
      </text>
      {/* value and masked code */}
      <text x="20" y="122" fontSize="30" fontWeight="800" fill="#fff">
        {card.amount}
      </text>
      <text
        x="20"
        y="151"
        fontSize="13"
        fontFamily="ui-monospace, monospace"
        fill="#fff"
        opacity="0.9"
        letterSpacing="1"
      >
        {card.code}
      </text>
    </g>
  );
}

/** Three stylised gift cards fanned out, with a "payment confirmed" badge. Decorative. */
export function HeroIllustration({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 480 420" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="gm-hero-indigo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#312e81" />
        </linearGradient>
        <linearGradient id="gm-hero-amber" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#f59e0b" />
          <stop offset="1" stopColor="#c2410c" />
        </linearGradient>
        <linearGradient id="gm-hero-teal" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#14b8a6" />
          <stop offset="1" stopColor="#0f766e" />
        </linearGradient>
      </defs>
      <circle cx="250" cy="215" r="185" fill="#e0e7ff" />
      <circle cx="410" cy="70" r="10" fill="#a5b4fc" />
      <circle cx="34" cy="300" r="8" fill="#fbbf24" />
      <circle cx="448" cy="330" r="6" fill="#6366f1" />
      {cards.map((card) => (
        <Card key={card.business} card={card} />
      ))}
      <g transform="translate(296 362)">
        <rect width="170" height="48" rx="24" fill="#fff" />
        <rect width="170" height="48" rx="24" fill="none" stroke="#c7d2fe" />
        <circle cx="24" cy="24" r="13" fill="#16a34a" />
        <path
          d="M18 24.5l4 4 8-9"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <text x="46" y="21" fontSize="12" fontWeight="700" fill="#0f172a">
          Payment confirmed
        </text>
        <text x="46" y="36" fontSize="11" fill="#475569">
          Card issued to you
        </text>
      </g>
    </svg>
  );
}
