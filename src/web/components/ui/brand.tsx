import { Link } from 'react-router';

/** The Giftmart wordmark; `to` makes it a link home. */
export function Wordmark({ to, light = false, className = '' }: { to?: string; light?: boolean; className?: string }) {
  const content = (
    <span className={`inline-flex items-center gap-2 text-xl font-extrabold tracking-tight ${light ? 'text-white' : 'text-slate-900'} ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 64 64" className="h-8 w-8">
        <rect width="64" height="64" rx="14" fill="#4f46e5" />
        <rect x="12" y="22" width="40" height="28" rx="4" fill="#fff" />
        <rect x="12" y="22" width="40" height="8" fill="#c7d2fe" />
        <rect x="29" y="22" width="6" height="28" fill="#f59e0b" />
      </svg>
      <span>
        Gift<span className={light ? 'text-amber-300' : 'text-brand-600'}>mart</span>
      </span>
    </span>
  );
  return to ? (
    <Link to={to} aria-label="Giftmart home" className="rounded focus-visible:outline-2 focus-visible:outline-brand-600">
      {content}
    </Link>
  ) : (
    content
  );
}
