import { PublicPageLayout } from './public-page-layout';
import { SupportContent } from './support-page';

/**
 * /support for everyone, signed in or not (it answered 404 to visitors): the same Customer Support rows as
 * the dashboards' Support screen, in the public pages' chrome. The dashboards keep their own
 * /dashboard/support and /user-dashboard/support inside their shell.
 */
export default function PublicSupportPage() {
  return (
    <PublicPageLayout>
      <div className="mx-auto max-w-3xl">
        <SupportContent />
      </div>
    </PublicPageLayout>
  );
}
