import { ButtonLink } from '../../components/ui/button';
import { Icon, icons } from '../../components/ui/icon';
import { NotFoundPage } from '../../components/ui/not-found';

/**
 * `/user-dashboard/card/id`, the literal path the old app registered for every card's detail (seed §2,
 * docs/seed-deviations.md). Such a link names no card, so it says where it came from and leads to the
 * catalogue instead of a "not found" for a card called "id".
 */
export default function LegacyCardLinkPage() {
  return (
    <NotFoundPage
      heading="Gift card link from the old app"
      icon={icons.gift}
      title="This link came from the old Giftmart app"
      text="The old app gave every gift card the same address, so this link doesn’t say which card it meant. Browse the gift cards on sale to find it."
    >
      <ButtonLink to="/user-dashboard">
        <Icon path={icons.gift} className="h-4 w-4" />
        Browse gift cards
      </ButtonLink>
    </NotFoundPage>
  );
}
