import { useQueryClient } from '@tanstack/react-query';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import type { Role } from '../../shared/accounts/schemas';
import { logOut } from '../features/auth/api';
import { MOBILE_MENU, SIDEBAR_NARROW_PX, SIDEBAR_WIDE_PX } from '../lib/constants';
import { useGiftCardStore } from '../lib/store';
import { Wordmark } from './ui/brand';

/**
 * The layout both dashboards share (seed §2, §9), and the small building blocks their pages share:
 * avatar, tabs, empty state, and the display-only security rows.
 *
 * Sizes follow the theme's breakpoints (md = 801 px, xl = 1052 px):
 * - ≥ 1052 px: a 250 px sidebar with icons and labels;
 * - 801–1051 px: a 60 px sidebar, icons only (each link keeps its name in aria-label and title);
 * - ≤ 800 px: no sidebar; a top bar with a menu button that opens a 250 × 400 px menu panel.
 */

/** Outline icon paths (24 × 24, stroke) used across the dashboards. */
export const icons = {
  home: 'M3 12l2-2m0 0l7-7 7 7M5 10v10a1 1 0 001 1h3m10-11l2 2m-2-2v10a1 1 0 01-1 1h-3m-6 0a1 1 0 001-1v-4a1 1 0 011-1h2a1 1 0 011 1v4a1 1 0 001 1m-6 0h6',
  gift: 'M12 8v13m0-13V6a2 2 0 112 2h-2zm0 0V5.5A2.5 2.5 0 109.5 8H12zm-7 4h14M5 12a2 2 0 110-4h14a2 2 0 110 4M5 12v7a2 2 0 002 2h10a2 2 0 002-2v-7',
  wallet:
    'M19 7V6a2 2 0 00-2-2H5a2 2 0 00-2 2v12a2 2 0 002 2h14a2 2 0 002-2V9a2 2 0 00-2-2H5m16 5h-4a2 2 0 000 4h4',
  bell: 'M15 17h5l-1.405-1.405A2.032 2.032 0 0118 14.158V11a6.002 6.002 0 00-4-5.659V5a2 2 0 10-4 0v.341C7.67 6.165 6 8.388 6 11v3.159c0 .538-.214 1.055-.595 1.436L4 17h5m6 0v1a3 3 0 11-6 0v-1m6 0H9',
  support:
    'M18.364 5.636l-3.536 3.536m0 5.656l3.536 3.536M9.172 9.172L5.636 5.636m3.536 9.192l-3.536 3.536M21 12a9 9 0 11-18 0 9 9 0 0118 0zm-5 0a4 4 0 11-8 0 4 4 0 018 0z',
  account:
    'M5.121 17.804A13.937 13.937 0 0112 16c2.5 0 4.847.655 6.879 1.804M15 10a3 3 0 11-6 0 3 3 0 016 0zm6 2a9 9 0 11-18 0 9 9 0 0118 0z',
  user: 'M16 7a4 4 0 11-8 0 4 4 0 018 0zM12 14a7 7 0 00-7 7h14a7 7 0 00-7-7z',
  cards: 'M3 10h18M7 15h1m4 0h1m-7 4h12a3 3 0 003-3V8a3 3 0 00-3-3H6a3 3 0 00-3 3v8a3 3 0 003 3z',
  logout: 'M17 16l4-4m0 0l-4-4m4 4H7m6 4v1a3 3 0 01-3 3H6a3 3 0 01-3-3V7a3 3 0 013-3h4a3 3 0 013 3v1',
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 18L18 6M6 6l12 12',
  eye: 'M15 12a3 3 0 11-6 0 3 3 0 016 0zM2.458 12C3.732 7.943 7.523 5 12 5c4.478 0 8.268 2.943 9.542 7-1.274 4.057-5.064 7-9.542 7-4.477 0-8.268-2.943-9.542-7z',
  eyeOff:
    'M13.875 18.825A10.05 10.05 0 0112 19c-4.478 0-8.268-2.943-9.543-7a9.97 9.97 0 011.563-3.029m5.858.908a3 3 0 114.243 4.243M9.878 9.878l4.242 4.242M9.88 9.88l-3.29-3.29m7.532 7.532l3.29 3.29M3 3l3.59 3.59m0 0A9.953 9.953 0 0112 5c4.478 0 8.268 2.943 9.543 7a10.025 10.025 0 01-4.132 5.411m0 0L21 21',
  inbox:
    'M20 13V6a2 2 0 00-2-2H6a2 2 0 00-2 2v7m16 0v5a2 2 0 01-2 2H6a2 2 0 01-2-2v-5m16 0h-2.586a1 1 0 00-.707.293l-2.414 2.414a1 1 0 01-.707.293h-3.172a1 1 0 01-.707-.293l-2.414-2.414A1 1 0 006.586 13H4',
  lock: 'M12 15v2m-6 4h12a2 2 0 002-2v-6a2 2 0 00-2-2H6a2 2 0 00-2 2v6a2 2 0 002 2zm10-10V7a4 4 0 00-8 0v4h8z',
  key: 'M15 7a2 2 0 012 2m4 0a6 6 0 01-7.743 5.743L11 17H9v2H7v2H4a1 1 0 01-1-1v-2.586a1 1 0 01.293-.707l5.964-5.964A6 6 0 1121 9z',
  trash:
    'M19 7l-.867 12.142A2 2 0 0116.138 21H7.862a2 2 0 01-1.995-1.858L5 7m5 4v6m4-6v6m1-10V4a1 1 0 00-1-1h-4a1 1 0 00-1 1v3M4 7h16',
  bank: 'M8 14v3m4-3v3m4-3v3M3 21h18M3 10h18M3 7l9-6 9 6M4 10h16v11H4V10z',
  clock: 'M12 8v4l3 3m6-3a9 9 0 11-18 0 9 9 0 0118 0z',
  arrowRight: 'M14 5l7 7m0 0l-7 7m7-7H3',
  arrowLeft: 'M10 19l-7-7m0 0l7-7m-7 7h18',
  tag: 'M7 7h.01M7 3h5c.512 0 1.024.195 1.414.586l7 7a2 2 0 010 2.828l-7 7a2 2 0 01-2.828 0l-7-7A1.994 1.994 0 013 12V7a4 4 0 014-4z',
} as const;

/** A decorative outline icon; the control that holds it carries the name. */
export function Icon({ path, className = 'h-5 w-5' }: { path: string; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      className={`shrink-0 ${className}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

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

export interface NavItem {
  to: string;
  label: string;
  /** An SVG path for a 24 × 24 outline icon. */
  icon: string;
  /** Match the path exactly (Home items), so Home is not active on every page below it. */
  end?: boolean;
}

export interface DashboardShellProps {
  /** Which signed-in profile Log Out forgets. */
  role: Role;
  /** The accessible name of the navigation landmark, e.g. "Business dashboard". */
  navLabel: string;
  items: NavItem[];
  account: { name: string; logoUrl?: string | null; caption?: string };
}

function navLinkClass({ isActive }: { isActive: boolean }): string {
  return `group flex min-h-11 items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
    isActive
      ? 'bg-brand-50 font-semibold text-brand-700'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;
}

const LOG_OUT = 'Log Out';

export function DashboardShell({ role, navLabel, items, account }: DashboardShellProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  // A new page starts at its top (the document scrolls, so the sidebar and header stay put).
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'instant' });
  }, [pathname]);

  // The mobile menu closes on Escape (focus goes back to its button) and on a click outside it.
  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (menuRef.current?.contains(target) || menuButtonRef.current?.contains(target)) return;
      setMenuOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [menuOpen]);

  async function signOut() {
    if (signingOut) return;
    setSigningOut(true);
    setMenuOpen(false);
    try {
      await logOut();
    } catch {
      // The session may already be gone on the server; this browser forgets it either way.
    }
    const store = useGiftCardStore.getState();
    if (role === 'business') store.logout();
    else store.Userlogout();
    queryClient.clear();
    navigate('/', { replace: true });
  }

  const sizes = {
    '--sidebar-narrow': `${SIDEBAR_NARROW_PX}px`,
    '--sidebar-wide': `${SIDEBAR_WIDE_PX}px`,
    '--menu-w': `${MOBILE_MENU.width}px`,
    '--menu-h': `${MOBILE_MENU.height}px`,
  } as CSSProperties;

  const logOutIcon = <Icon path={icons.logout} />;

  return (
    <div className="flex min-h-dvh bg-slate-50" style={sizes}>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-700 shadow focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to main content
      </a>

      {/* Sidebar: 60 px (icons) from 801 px, 250 px (icons and labels) from 1052 px; hidden below. */}
      <aside className="sticky top-0 hidden h-dvh w-(--sidebar-narrow) shrink-0 flex-col border-r border-slate-200 bg-white md:flex xl:w-(--sidebar-wide)">
        <div className="flex h-16 shrink-0 items-center justify-center border-b border-slate-100 xl:justify-start xl:px-6">
          {/* At 60 px only the mark fits; the word stays in the accessibility tree. */}
          <div className="w-8 overflow-hidden xl:w-auto xl:overflow-visible">
            <Wordmark className="whitespace-nowrap" />
          </div>
        </div>
        <nav aria-label={navLabel} className="flex min-h-0 flex-1 flex-col overflow-y-auto px-2 py-4 xl:px-4">
          <ul className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  aria-label={item.label}
                  title={item.label}
                  className={(state) => `${navLinkClass(state)} justify-center xl:justify-start`}
                >
                  <Icon path={item.icon} />
                  <span className="hidden truncate xl:inline">{item.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-auto border-t border-slate-100 pt-3">
            <button
              type="button"
              onClick={signOut}
              disabled={signingOut}
              aria-label={LOG_OUT}
              title={LOG_OUT}
              className="flex min-h-11 w-full items-center justify-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 transition hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-wait disabled:opacity-70 xl:justify-start"
            >
              {logOutIcon}
              <span className="hidden xl:inline">{signingOut ? 'Logging out…' : LOG_OUT}</span>
            </button>
          </div>
        </nav>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 md:px-8">
          {/* Small screens: menu button and wordmark. */}
          <div className="relative flex items-center gap-2 md:hidden">
            <button
              ref={menuButtonRef}
              type="button"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
              className="flex h-11 w-11 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <Icon path={menuOpen ? icons.close : icons.menu} className="h-6 w-6" />
            </button>
            <Wordmark />
            <div
              ref={menuRef}
              id={menuId}
              hidden={!menuOpen}
              className="absolute left-0 top-full mt-3 flex h-(--menu-h) max-h-[calc(100dvh-5rem)] w-(--menu-w) flex-col overflow-y-auto rounded-2xl border border-slate-200 bg-white p-3 shadow-xl"
            >
              <nav aria-label={navLabel} className="flex flex-1 flex-col">
                <ul className="flex flex-col gap-1">
                  {items.map((item) => (
                    <li key={item.to}>
                      <NavLink
                        to={item.to}
                        end={item.end}
                        className={navLinkClass}
                        onClick={() => setMenuOpen(false)}
                      >
                        <Icon path={item.icon} />
                        <span>{item.label}</span>
                      </NavLink>
                    </li>
                  ))}
                </ul>
                <div className="mt-auto border-t border-slate-100 pt-2">
                  <button
                    type="button"
                    onClick={signOut}
                    disabled={signingOut}
                    className="flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-wait"
                  >
                    {logOutIcon}
                    <span>{signingOut ? 'Logging out…' : LOG_OUT}</span>
                  </button>
                </div>
              </nav>
            </div>
          </div>

          {/* The signed-in account, on the right. */}
          <div className="ml-auto flex min-w-0 items-center gap-3">
            <div className="sr-only min-w-0 text-right sm:not-sr-only">
              <p className="truncate text-sm font-semibold text-slate-900">{account.name}</p>
              {account.caption ? <p className="truncate text-xs text-slate-600">{account.caption}</p> : null}
            </div>
            <Avatar name={account.name} src={account.logoUrl} decorative className="h-10 w-10 text-base" />
          </div>
        </header>

        <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
          <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 md:px-8 md:py-8">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}

/** A page title with an optional line under it. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="mb-6 md:mb-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 md:text-3xl">{title}</h1>
      {children ? <div className="mt-2 text-slate-600">{children}</div> : null}
    </div>
  );
}

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

/** The notifications empty state, the same on both dashboards. */
export function NoNotifications() {
  return (
    <EmptyState title="Whoops! No Activity" text="You'll get new notifications soon" icon={icons.bell} />
  );
}

export interface TabItem {
  id: string;
  label: string;
  panel: ReactNode;
}

/** WAI-ARIA tabs: arrow keys (and Home/End) move between tabs and select them; Tab goes to the panel. */
export function Tabs({
  label,
  tabs,
  selected: controlled,
  onSelect,
}: {
  label: string;
  tabs: TabItem[];
  /** Pass both to control the selected tab from outside (e.g. switch tabs after a form is sent). */
  selected?: string;
  onSelect?: (id: string) => void;
}) {
  const baseId = useId();
  const [uncontrolled, setUncontrolled] = useState(tabs[0]?.id ?? '');
  const selected = controlled ?? uncontrolled;
  const setSelected = (id: string) => (onSelect ? onSelect(id) : setUncontrolled(id));
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  function select(index: number) {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    setSelected(tab.id);
    tabRefs.current[(index + tabs.length) % tabs.length]?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  }

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-1 border-b border-slate-200">
        {tabs.map((tab, index) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                tabRefs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => setSelected(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`-mb-px border-b-2 px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                isSelected
                  ? 'border-brand-600 text-brand-700'
                  : 'border-transparent text-slate-600 hover:text-slate-900'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={tab.id !== selected}
          tabIndex={0}
          className="pt-6 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}

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
