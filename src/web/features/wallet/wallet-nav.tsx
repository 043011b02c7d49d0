import { NavLink } from 'react-router';

const links = [
  { to: '/dashboard/wallet', label: 'Overview', end: true },
  { to: '/dashboard/wallet/statement', label: 'Statement', end: false },
];

/** The wallet's two views, as links with their own addresses: balance and banks, and the statement. */
export function WalletNav() {
  return (
    <nav aria-label="Wallet views" className="mb-6 border-b border-slate-200">
      <ul className="flex gap-1">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                `-mb-px inline-block border-b-2 px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  isActive
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-slate-600 hover:text-slate-900'
                }`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
