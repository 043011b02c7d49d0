import { ANCHORS, BREAKPOINTS } from '../../lib/constants';

// The landing page's behaviour that needs no React: shared by the React page (the router's `/`, and the
// source the build pre-renders) and the small script the pre-rendered page runs (src/web/landing.ts).

export type Target = 'home' | keyof typeof ANCHORS | 'support';

export const SECTION_IDS: Record<Target, string> = {
  home: 'top',
  about: 'about',
  features: 'how-it-works',
  getStarted: 'get-started',
  support: 'support',
};

export const NAV: { target: Target; label: string }[] = [
  { target: 'home', label: 'Home' },
  { target: 'about', label: 'About' },
  { target: 'features', label: 'How it works / Features' },
  { target: 'getStarted', label: 'Get started' },
  { target: 'support', label: 'Customer support' },
];

/** The nav target a `#section` link stands for. */
export function targetOfHash(hash: string): Target | undefined {
  const id = hash.replace(/^#/, '');
  return (Object.keys(SECTION_IDS) as Target[]).find((target) => SECTION_IDS[target] === id);
}

/** The top bar's classes: transparent over the hero, then fixed and white once the page has scrolled. */
export function topBarClass(fixed: boolean): string {
  return `inset-x-0 top-0 z-40 transition-colors ${
    fixed ? 'fixed border-b border-slate-200 bg-white shadow-md' : 'absolute bg-transparent'
  }`;
}

/** Where a section starts in the document right now. */
function documentTop(element: HTMLElement): number {
  return Math.round(element.getBoundingClientRect().top + window.scrollY);
}

/**
 * Scrolls to a part of the page. Home is 0; About, How it works and Get started are the seed's anchor
 * positions (900, 1850, 2950 px), which is where the desktop layout (xl and wider) starts those sections.
 * Narrower layouts stack their content and run taller, so there the section's real top is used instead.
 */
export function scrollToTarget(target: Target) {
  const element = document.getElementById(SECTION_IDS[target]);
  let top = 0;
  if (target === 'support') {
    top = element ? documentTop(element) : document.documentElement.scrollHeight;
  } else if (target !== 'home') {
    const anchor = ANCHORS[target];
    const actual = element ? documentTop(element) : anchor;
    top = window.innerWidth > BREAKPOINTS.xl || !element ? anchor : actual;
  }
  window.scrollTo({ top, behavior: 'smooth' });
  // Keyboard and screen-reader users land in the section they asked for.
  element?.focus({ preventScroll: true });
}

/** Scrolls back to the top and puts the focus on the hero. */
export function scrollToTop() {
  window.scrollTo({ top: 0, behavior: 'smooth' });
  document.getElementById('top')?.focus({ preventScroll: true });
}
