/** The first letter of a name, for an initial avatar. */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toLocaleUpperCase();
}

/**
 * A round picture: the image when there is one, otherwise the name's initial. `decorative` hides it from
 * assistive technology when the name is written next to it.
 */
export function Avatar({
  name,
  src,
  className = 'h-10 w-10 text-base',
  decorative = false,
  alt,
}: {
  name: string;
  src?: string | null;
  className?: string;
  decorative?: boolean;
  alt?: string;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt={decorative ? '' : (alt ?? name)}
        className={`shrink-0 rounded-full bg-white object-cover ring-1 ring-slate-200 ${className}`}
      />
    );
  }
  return (
    <span
      aria-hidden={decorative ? true : undefined}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : (alt ?? name)}
      className={`flex shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white ${className}`}
    >
      {initialOf(name)}
    </span>
  );
}
