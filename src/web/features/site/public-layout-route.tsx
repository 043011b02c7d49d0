import { Outlet } from 'react-router';
import { PublicPageLayout } from './public-page-layout';

/** The public pages' chrome as a layout route, for public pages that live in other features (/balance). */
export default function PublicLayoutRoute() {
  return (
    <PublicPageLayout>
      <Outlet />
    </PublicPageLayout>
  );
}
