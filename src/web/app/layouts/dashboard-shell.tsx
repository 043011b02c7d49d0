import { useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useId, useMemo, useRef, useState, type CSSProperties } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import type { Role } from '../../../shared/accounts/schemas';
import { Avatar } from '../../components/ui/avatar';
import { Wordmark } from '../../components/ui/brand';
import { Icon, icons } from '../../components/ui/icon';
import { logOut } from '../../features/accounts/api';
import { useUnreadCount } from '../../features/notifications/use-notifications-live';
import { MOBILE_MENU, SIDEBAR_NARROW_PX, SIDEBAR_WIDE_PX } from '../../lib/constants';
import { useGiftCardStore } from '../../lib/store';

/**
 * The layout both dashboards share (seed §2, §9). The building blocks their pages share (icon, avatar,
 * page header, empty state, tabs) live in components/ui.
 *
 * Sizes follow the theme's breakpoints (md = 801 px, xl = 1052 px):
 * - ≥ 1052 px: a 250 px sidebar with icons and labels;
 * - 801–1051 px: a 60 px sidebar, icons only (each link keeps its name in aria-label and title);
 * - ≤ 800 px: no sidebar; a top bar with a menu button that opens a 250 × 400 px menu panel.
 */

export interface NavItem {
  to: string;
  label: string;
  /** An SVG path for a 24 × 24 outline icon. */
  icon: string;
  /** Match the path exactly (Home items), so Home is not active on every page below it. */
  end?: boolean;
  /** Other paths (and what is below them) that belong to this item, e.g. a second tab with its own address. */
  alsoActiveUnder?: string[];
  /** How many unread things it holds (the notifications' count); shown as a badge and in its name. */
  unread?: number;
}

/**
 * The menu with the unread count on its Notification(s) item (the one that leads to …/notify): the same array
 * while the count is the same, so the shell (a memo) is not drawn again when the count's query answers alike.
 */
export function useMenuWithUnread(items: NavItem[]): NavItem[] {
  const unread = useUnreadCount().data ?? 0;
  return useMemo(
    () => items.map((item) => (item.to.endsWith('/notify') ? { ...item, unread } : item)),
    [items, unread],
  );
}

/** "Notifications, 3 unread", or just the label. */
function itemName(item: NavItem): string {
  return item.unread ? `${item.label}, ${item.unread} unread` : item.label;
}

/** The badge's text: the count, or 99+. */
function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

function isUnder(pathname: string, prefixes: string[] = []): boolean {
  return prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
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

/**
 * Set once the app has shown an address other than the one the document opened on: React Router keys that
 * first history entry 'default', and every navigation (a redirect included) gets a key of its own.
 */
let leftFirstEntry = false;

/**
 * Drawn again only when its props change (or the address, or what it reads itself): the layouts above it
 * render again whenever the unread count's query or the signed-in profile is set, the same or not, and at the
 * start that redrew every menu link outside the first render's transition (issue 14, the total blocking time).
 * The layouts keep `items` and `account` the same objects while their contents are.
 */
export const DashboardShell = memo(DashboardShellFrame);

function DashboardShellFrame({ role, navLabel, items, account }: DashboardShellProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname, key } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const unread = items.reduce((sum, item) => sum + (item.unread ?? 0), 0);

  // A new page starts at its top (the document scrolls, so the sidebar and header stay put). Not the page the
  // document opened on: the browser has put it where it belongs, and scrolling made the browser lay the whole
  // page out in the middle of the app's start (9-19 ms with the CPU slowed four times; issue 14, the total
  // blocking time).
  useEffect(() => {
    if (key !== 'default') leftFirstEntry = true;
    if (!leftFirstEntry) return;
    window.scrollTo({ top: 0, behavior: 'instant' });
  }, [pathname]); // eslint-disable-line react-hooks/exhaustive-deps -- on a new address only

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
      {/* The white column runs the page's full height; the sidebar inside it stays in view as the page scrolls. */}
      <div className="hidden shrink-0 border-r border-slate-200 bg-white md:block">
        <aside className="sticky top-0 flex h-dvh w-(--sidebar-narrow) flex-col xl:w-(--sidebar-wide)">
          <div className="flex h-16 shrink-0 items-center justify-center border-b border-slate-100 xl:justify-start xl:px-6">
            {/* At 60 px only the mark fits; the word stays in the accessibility tree. */}
            <div className="w-8 overflow-hidden xl:w-auto xl:overflow-visible">
              <Wordmark className="whitespace-nowrap" />
            </div>
          </div>
          <nav
            aria-label={navLabel}
            className="flex min-h-0 flex-1 flex-col overflow-y-auto px-2 py-4 xl:px-4"
          >
            <ul className="flex flex-col gap-1">
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.end}
                    aria-label={itemName(item)}
                    title={itemName(item)}
                    className={({ isActive }) =>
                      `${navLinkClass({ isActive: isActive || isUnder(pathname, item.alsoActiveUnder) })} relative justify-center xl:justify-start`
                    }
                  >
                    <Icon path={item.icon} />
                    <span className="hidden truncate xl:inline">{item.label}</span>
                    {/* On the icon in the 60 px sidebar, at the end of the row in the wide one. */}
                    <UnreadBadge
                      count={item.unread}
                      className="absolute top-1 right-1 px-1.5 py-0.5 text-[0.6875rem] xl:static xl:ml-auto xl:px-2 xl:py-1 xl:text-xs"
                    />
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
      </div>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 md:px-8">
          {/* Small screens: menu button and wordmark. */}
          <div className="relative flex items-center gap-2 md:hidden">
            <button
              ref={menuButtonRef}
              type="button"
              aria-label={unread ? `Open menu, ${unread} unread` : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
              className="relative flex h-11 w-11 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <Icon path={menuOpen ? icons.close : icons.menu} className="h-6 w-6" />
              {/* The count is inside the closed menu: a dot on its button says there is something new. */}
              {unread && !menuOpen ? (
                <span
                  aria-hidden="true"
                  className="absolute top-2 right-2 h-2.5 w-2.5 rounded-full bg-red-600 ring-2 ring-white"
                />
              ) : null}
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
                        aria-label={item.unread ? itemName(item) : undefined}
                        className={({ isActive }) =>
                          navLinkClass({ isActive: isActive || isUnder(pathname, item.alsoActiveUnder) })
                        }
                        onClick={() => setMenuOpen(false)}
                      >
                        <Icon path={item.icon} />
                        <span>{item.label}</span>
                        <UnreadBadge count={item.unread} className="ml-auto px-2 py-1 text-xs" />
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

/**
 * The unread count on a navigation item, hidden from screen readers (the link's name says it). The space
 * before it keeps "Notifications 1" two words (axe: the name must contain what shows).
 */
function UnreadBadge({ count, className }: { count?: number; className: string }) {
  if (!count) return null;
  return (
    <>
      {' '}
      <span
        aria-hidden="true"
        className={`min-w-5 rounded-full bg-red-600 text-center leading-none font-bold text-white tabular-nums ${className}`}
      >
        {badgeText(count)}
      </span>
    </>
  );
}
