import type { MouseEvent, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Wordmark } from '../../components/ui/brand';
import { SupportIcon } from './support-icons';

/** React Router keeps its position in the history stack in history.state.idx; above 0 there is an in-app page to go back to. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

function BackLink() {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (canGoBack()) {
      event.preventDefault();
      void navigate(-1);
    }
  };
  return (
    <Link
      to="/"
      onClick={onClick}
      className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <SupportIcon name="arrowLeft" className="h-4 w-4" />
      Back
    </Link>
  );
}

/**
 * The simple chrome of the public pages (FAQs, Terms, Check a balance, 404): wordmark home, a back link, a
 * footer.
 */
export function PublicPageLayout({ children, showBack = true }: { children: ReactNode; showBack?: boolean }) {
  const linkClass =
    'rounded font-medium text-slate-700 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white px-5 sm:px-8">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between gap-4">
          <Wordmark to="/" />
          {showBack ? <BackLink /> : null}
        </div>
      </header>
      <main className="flex-1 px-5 py-10 sm:px-8 sm:py-14">{children}</main>
      <footer className="border-t border-slate-200 bg-white px-5 py-6 text-sm text-slate-600 sm:px-8">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Giftmart. All rights reserved.</p>
          <nav aria-label="Footer">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              <li>
                <Link to="/balance" className={linkClass}>
                  Check a balance
                </Link>
              </li>
              <li>
                <Link to="/faqs" className={linkClass}>
                  FAQs
                </Link>
              </li>
              <li>
                <Link to="/terms" className={linkClass}>
                  Terms
                </Link>
              </li>
              <li>
                <Link to="/support" className={linkClass}>
                  Support
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/** The support address as a mailto link, from GET /api/v1/config; plain text while it loads. */
export function SupportEmailLink({
  email,
  className = '',
}: {
  email: string | undefined;
  className?: string;
}) {
  if (!email) return <span className={className}>our support address (loading…)</span>;
  return (
    <a
      href={`mailto:${email}`}
      className={`rounded font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${className}`}
    >
      {email}
    </a>
  );
}
