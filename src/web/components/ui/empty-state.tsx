import type { ReactNode } from 'react';
import { Icon, icons } from './icon';

/**
 * "Nothing here yet". `sentence` writes it on one line joined by an en dash, as the seed's
 * "Whoops! No Activity – You'll see your gift cards soon."
 */
export function EmptyState({
  title,
  text,
  icon = icons.inbox,
  sentence = false,
  children,
}: {
  title: string;
  text: string;
  icon?: string;
  sentence?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <Icon path={icon} className="h-7 w-7" />
      </span>
      {sentence ? (
        <p className="mt-5 max-w-md text-slate-700">
          <strong className="font-semibold text-slate-900">{title}</strong> – {text}
        </p>
      ) : (
        <>
          <p className="mt-5 text-lg font-semibold text-slate-900">{title}</p>
          <p className="mt-1 max-w-md text-slate-600">{text}</p>
        </>
      )}
      {children ? <div className="mt-6">{children}</div> : null}
    </div>
  );
}
