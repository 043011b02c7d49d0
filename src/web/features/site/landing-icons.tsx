import { ICONS } from './landing-icon-paths';

export { ICONS };

export type IconName = keyof typeof ICONS;

/** Small stroke icons (24×24, currentColor) used across the landing page; always decorative. */
export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICONS[name]} />
    </svg>
  );
}
