import type { GiftCard } from '../../../shared/catalogue/schemas';
import { GiftCardTile, type TileCard } from './gift-card-tile';

/** The 270×170 tile drawn larger (1.25× on phones, 1.5× from 768 px), keeping its design. */
export function LargeTile({ card }: { card: TileCard | GiftCard }) {
  return (
    <div className="h-[212px] w-[337px] shrink-0 sm:h-[255px] sm:w-[405px]">
      <GiftCardTile card={card} className="origin-top-left scale-125 sm:scale-150" />
    </div>
  );
}
