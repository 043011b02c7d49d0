import { ButtonLink } from '../../components/ui/button';
import { PublicPageLayout } from './public-page-layout';
import { SupportIcon } from './support-icons';

/** Any address the app does not know. */
export default function NotFoundPage() {
  return (
    <PublicPageLayout showBack={false}>
      <div className="mx-auto flex max-w-lg flex-col items-center py-10 text-center">
        <span className="flex h-20 w-20 items-center justify-center rounded-3xl bg-brand-100 text-brand-700">
          <SupportIcon name="gift" className="h-10 w-10" />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-wide text-brand-700 uppercase">Error 404</p>
        <h1 className="mt-2 text-3xl font-extrabold text-slate-900">Page not found</h1>
        <p className="mt-4 text-slate-600">
          This gift seems to have gone to the wrong address. The link may be old or mistyped, or the page may
          have moved.
        </p>
        <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <ButtonLink to="/">Go to the home page</ButtonLink>
          <ButtonLink to="/faqs" variant="secondary">
            Read the FAQs
          </ButtonLink>
        </div>
      </div>
    </PublicPageLayout>
  );
}
