import { Link } from 'react-router';
import { WordmarkMark } from './wordmark-mark';

/** The Giftmart wordmark; `to` makes it a link home. */
export function Wordmark({
  to,
  light = false,
  className = '',
}: {
  to?: string;
  light?: boolean;
  className?: string;
}) {
  const content = <WordmarkMark light={light} className={className} />;
  return to ? (
    <Link
      to={to}
      aria-label="Giftmart home"
      className="rounded focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {content}
    </Link>
  ) : (
    content
  );
}
