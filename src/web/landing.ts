// The landing page's script (ADR 004). The page itself is HTML pre-rendered at build time from the React
// landing page (scripts/prerender.mjs), so it paints without JavaScript; this adds what React's page does
// after the first paint, without React: the fixed bar, the phone menu, the scroll-to-top button, the lazy
// sections, and sending a signed-in visitor to their dashboard. The support address needs nothing: the server
// writes its own into the page (src/server/plugins/web.ts).
import {
  FIXED_BAR_AFTER_PX,
  BREAKPOINTS,
  CHUNK_LOAD_TIMEOUT_MS,
  LAZY_SECTION_DELAY_MS,
  SCROLL_TOP_AFTER_PX,
  PERSIST_KEY,
} from './lib/constants';
import { ChunkLoadError } from './lib/chunk-load-error';
import { safeNextPath } from './lib/next-path';
import { ICONS } from './features/site/landing-icon-paths';
import { scrollToTarget, scrollToTop, targetOfHash, topBarClass } from './features/site/landing-dom';
import './landing.css';

/** Seed §2, as PublicOnly does in the router: a signed-in visitor goes to their dashboard (or to `?next=`). */
function redirectSignedIn(): boolean {
  let state: { bizClient?: unknown; userData?: unknown } | undefined;
  try {
    state = (JSON.parse(localStorage.getItem(PERSIST_KEY) ?? 'null') as { state?: typeof state } | null)
      ?.state;
  } catch {
    return false;
  }
  if (!state?.bizClient && !state?.userData) return false;
  const next = safeNextPath(new URLSearchParams(window.location.search).get('next'));
  window.location.replace(next ?? (state.bizClient ? '/dashboard' : '/user-dashboard'));
  return true;
}

function template(id: string): HTMLElement {
  const element = document.getElementById(id) as HTMLTemplateElement;
  return element.content.firstElementChild!.cloneNode(true) as HTMLElement;
}

function topBar(header: HTMLElement) {
  const button = header.querySelector<HTMLButtonElement>('button[aria-controls="landing-menu"]')!;
  let menu: HTMLElement | null = null;

  const setMenu = (open: boolean) => {
    if (open === (menu !== null)) return;
    button.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    button.setAttribute('aria-expanded', String(open));
    button.querySelector('path')?.setAttribute('d', open ? ICONS.close : ICONS.menu);
    if (open) {
      menu = template('landing-menu');
      header.append(menu);
      menu.querySelector('a')?.focus();
      document.addEventListener('keydown', onKey);
      document.addEventListener('pointerdown', onPointer);
      window.addEventListener('resize', onResize);
    } else {
      menu?.remove();
      menu = null;
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('resize', onResize);
    }
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setMenu(false);
    button.focus();
  };
  const onPointer = (event: PointerEvent) => {
    if (!header.contains(event.target as Node)) setMenu(false);
  };
  const onResize = () => {
    if (window.innerWidth >= BREAKPOINTS.sm) setMenu(false);
  };

  button.addEventListener('click', () => setMenu(menu === null));
  header.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href^="#"]');
    const target = link && targetOfHash(link.getAttribute('href')!);
    if (!target) return;
    event.preventDefault();
    setMenu(false);
    scrollToTarget(target);
  });
}

function scrollWatch(header: HTMLElement, page: HTMLElement) {
  let fixed = false;
  let scrollTop: HTMLElement | null = null;
  const update = () => {
    const y = window.scrollY;
    if (y > FIXED_BAR_AFTER_PX !== fixed) {
      fixed = !fixed;
      header.className = topBarClass(fixed);
    }
    if (y > SCROLL_TOP_AFTER_PX && !scrollTop) {
      scrollTop = template('landing-scroll-top');
      scrollTop.addEventListener('click', scrollToTop);
      page.append(scrollTop);
    } else if (y <= SCROLL_TOP_AFTER_PX && scrollTop) {
      scrollTop.remove();
      scrollTop = null;
    }
  };
  window.addEventListener('scroll', update, { passive: true });
  window.addEventListener('resize', update);
  update();
}

/** Downloads a section's body, failing as seed §8's ChunkLoadError on an error or after 120 seconds. */
function loadBody(id: string, url: string): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk ${id} failed. (timeout)`)),
      CHUNK_LOAD_TIMEOUT_MS,
    );
  });
  return Promise.race([import(/* @vite-ignore */ url) as Promise<{ default: string }>, timeout])
    .then((module) => module.default)
    .catch((error: unknown) => {
      if (error instanceof ChunkLoadError) throw error;
      throw new ChunkLoadError(
        `Loading chunk ${id} failed. (${error instanceof Error ? error.message : 'error'})`,
      );
    })
    .finally(() => clearTimeout(timer));
}

/** Seed §2: a section's body appears LAZY_SECTION_DELAY_MS after it first enters the viewport. */
function lazySection(section: HTMLElement, url: string) {
  const reveal = (body: string | null, error: Error | null) => {
    const loading = section.querySelector('[role="status"]');
    const holder = loading?.parentElement;
    if (!holder) return;
    if (body !== null) {
      holder.innerHTML = body;
    } else {
      const box = template('landing-section-error');
      box.querySelector('[data-error-message]')!.textContent = error?.message ?? '';
      box.querySelector('button')?.addEventListener('click', () => window.location.reload());
      holder.replaceChildren(box);
    }
    section.setAttribute('aria-busy', 'false');
  };
  const start = () => {
    let body: string | null = null;
    let error: Error | null = null;
    let delayOver = false;
    const maybeReveal = () => {
      if (delayOver && (body !== null || error !== null)) reveal(body, error);
    };
    loadBody(section.id, url).then(
      (html) => {
        body = html;
        maybeReveal();
      },
      (failure: Error) => {
        error = failure;
        maybeReveal();
      },
    );
    window.setTimeout(() => {
      delayOver = true;
      maybeReveal();
    }, LAZY_SECTION_DELAY_MS);
  };
  if (typeof IntersectionObserver === 'undefined') return start();
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    start();
  });
  observer.observe(section);
}

/** The footer's year: the page was pre-rendered in the build's year. */
function currentYear() {
  const line = document.querySelector('footer > p:last-child');
  const year = String(new Date().getFullYear());
  if (line && !line.textContent.includes(year)) {
    line.textContent = line.textContent.replace(/\d{4}/, year);
  }
}

if (!redirectSignedIn()) {
  const header = document.querySelector('header')!;
  const page = header.parentElement!;
  topBar(header);
  scrollWatch(header, page);
  const chunks = JSON.parse(document.getElementById('landing-sections')!.textContent) as Record<
    string,
    string
  >;
  for (const [id, url] of Object.entries(chunks)) {
    const section = document.getElementById(id);
    if (section) lazySection(section, url);
  }
  currentYear();
}
