import { NavLink } from 'react-router';

export interface PageTab {
  to: string;
  label: string;
  /** Active only on exactly this address (the first view), not under it. */
  end?: boolean;
}

/**
 * A screen's views as underlined tabs that are links, each view with its own address (the till, Sales, the
 * wallet): the browser's back button and a bookmark land on the view, unlike a tab kept in state.
 */
export function PageTabs({ label, tabs }: { label: string; tabs: readonly PageTab[] }) {
  return (
    <nav aria-label={label} className="mb-6 border-b border-slate-200">
      <ul className="flex gap-1">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end ?? false}
              className={({ isActive }) =>
                `-mb-px inline-block border-b-2 px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  isActive
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-slate-600 hover:text-slate-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
