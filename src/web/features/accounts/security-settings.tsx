import type { ReactNode } from 'react';
import { Icon, icons } from '../../components/ui/icon';

const securityRows = [
  { label: 'Create Transaction PIN', icon: icons.key, danger: false },
  { label: 'Change Password', icon: icons.lock, danger: false },
  { label: 'Delete My Account', icon: icons.trash, danger: true },
] as const;

/**
 * The Security tab (seed §2): three rows, the same for businesses and users. `pinRow` renders the first row
 * (the business's working transaction PIN row, given the row's icon); without it every row is display-only.
 */
export function SecuritySettings({ pinRow }: { pinRow?: (icon: ReactNode) => ReactNode } = {}) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <ul className="divide-y divide-slate-100">
        {securityRows.map((row, index) =>
          index === 0 && pinRow ? (
            <li key={row.label}>{pinRow(<Icon path={row.icon} />)}</li>
          ) : (
            <li key={row.label} className="flex items-center gap-4 px-5 py-4">
              <span
                className={`flex h-10 w-10 items-center justify-center rounded-full ${
                  row.danger ? 'bg-red-50 text-red-700' : 'bg-slate-100 text-slate-700'
                }`}
              >
                <Icon path={row.icon} />
              </span>
              <span className={`flex-1 font-medium ${row.danger ? 'text-red-700' : 'text-slate-900'}`}>
                {row.label}
              </span>
              <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-700">
                Coming soon
              </span>
            </li>
          ),
        )}
      </ul>
      <p className="border-t border-slate-100 px-5 py-4 text-sm text-slate-600">
        {pinRow
          ? 'Changing your password and deleting your account are not available yet. They will open here soon.'
          : 'These settings are not available yet. They will open here soon.'}
      </p>
    </div>
  );
}
