/**
 * The Giftmart wordmark's drawing, with no router import so the landing page (ADR 004) can use it too.
 * components/ui/brand.tsx wraps it in a link.
 */
export function WordmarkMark({ light = false, className = '' }: { light?: boolean; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-2 text-xl font-extrabold tracking-tight ${light ? 'text-white' : 'text-slate-900'} ${className}`}
    >
      <svg aria-hidden="true" focusable="false" viewBox="0 0 64 64" className="h-8 w-8">
        <rect width="64" height="64" rx="14" fill="#4f46e5" />
        <rect x="12" y="22" width="40" height="28" rx="4" fill="#fff" />
        <rect x="12" y="22" width="40" height="8" fill="#c7d2fe" />
        <rect x="29" y="22" width="6" height="28" fill="#f59e0b" />
      </svg>
      {/* One text node for the name: as a flex item of its own, "mart" would sit a gap away from "Gift". */}
      <span>
        Gift<span className={light ? 'text-amber-300' : 'text-brand-600'}>mart</span>
      </span>
    </span>
  );
}
