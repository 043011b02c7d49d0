import type { ReactNode } from 'react';

/** A page title with an optional line under it. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="mb-6 md:mb-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 md:text-3xl">{title}</h1>
      {children ? <div className="mt-2 text-slate-600">{children}</div> : null}
    </div>
  );
}
