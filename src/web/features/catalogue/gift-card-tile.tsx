import type { ReactNode } from 'react';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import { formatMoney, type Money } from '../../../shared/money';
import { initialOf } from '../../components/ui/avatar';
import { CARD_TILE } from '../../lib/constants';
import { readableTextOn } from './contrast';

export interface TileCard {
  businessName: string;
  brandLogoUrl: string | null;
  amount: Money;
  colour: string;
  uniqueId?: string;
}

/**
 * The 270×170 gift-card tile (seed §2, §9): brand logo, business name, amount and code on the card's own
 * colour, with dark or light text chosen by contrast so any colour stays readable.
 */
export function GiftCardTile({
  card,
  footer,
  className = '',
}: {
  card: TileCard | GiftCard;
  footer?: ReactNode;
  className?: string;
}) {
  const text = readableTextOn(card.colour);
  return (
    <div
      className={`relative flex shrink-0 flex-col justify-between overflow-hidden rounded-2xl p-4 shadow-md ring-1 ring-black/10 ${className}`}
      style={{ width: CARD_TILE.width, height: CARD_TILE.height, background: card.colour, color: text }}
    >
      <span
        aria-hidden="true"
        className="pointer-events-none absolute -right-10 -top-10 h-32 w-32 rounded-full"
        style={{ background: `${text}14` }}
      />
      <div className="relative flex items-center gap-2.5">
        {card.brandLogoUrl ? (
          <img
            src={card.brandLogoUrl}
            alt=""
            className="h-9 w-9 rounded-full bg-white object-cover ring-2 ring-white/70"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex h-9 w-9 items-center justify-center rounded-full bg-white text-sm font-bold text-slate-900 ring-2 ring-white/70"
          >
            {initialOf(card.businessName)}
          </span>
        )}
        <span className="truncate text-sm font-semibold">{card.businessName}</span>
      </div>
      <div className="relative">
        <p className="text-2xl font-extrabold tracking-tight tabular-nums">{formatMoney(card.amount)}</p>
        <div className="mt-1 flex items-center justify-between gap-2 text-xs font-medium">
          {card.uniqueId ? (
            <span className="font-mono tracking-wider">{card.uniqueId}</span>
          ) : (
            <span>Gift card</span>
          )}
          {footer}
        </div>
      </div>
    </div>
  );
}
