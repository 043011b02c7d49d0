import { useEffect, useRef, useState, type CSSProperties, type MouseEvent, type Ref } from 'react';
import { WordmarkMark } from '../../components/ui/wordmark-mark';
import {
  ANCHORS,
  BREAKPOINTS,
  FIXED_BAR_AFTER_PX,
  MOBILE_MENU,
  SCROLL_TOP_AFTER_PX,
} from '../../lib/constants';
import { HeroIllustration } from './hero-illustration';
import { Icon } from './landing-icons';
import { LazySection, SectionLoadError } from './lazy-section';
import { NAV, SECTION_IDS, scrollToTarget, scrollToTop, topBarClass, type Target } from './landing-dom';
import { useScrolledPast } from './use-scrolled-past';
import { useSupportEmail } from './use-support-email';

// This page must not import React Router, TanStack Query, zod or SweetAlert2 (ADR 004): a signed-out visit
// to / renders it without the router, so its links are plain <a href> links that load the next screen.

// The four section bodies are separate chunks, fetched when their section first comes into view.
const loadAbout = () => import('./sections/about-section');
const loadHowItWorks = () => import('./sections/how-it-works-section');
const loadSafety = () => import('./sections/safety-section');
const loadGetStarted = () => import('./sections/get-started-section');

const navLinkClass =
  'rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 transition hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * The phone menu, in the page only while open. `onNavigate` is absent when the build pre-renders it into a
 * template for the page's script (src/web/landing.ts), which handles the same links itself.
 */
function MobileMenu({
  ref,
  onNavigate,
}: {
  ref?: Ref<HTMLElement>;
  onNavigate?: (target: Target) => (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  return (
    <nav
      ref={ref}
      id="landing-menu"
      aria-label="Main"
      className="absolute top-16 right-4 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-3 shadow-xl sm:hidden"
      style={{ width: MOBILE_MENU.width, maxHeight: MOBILE_MENU.height }}
    >
      <ul className="flex flex-col">
        {NAV.map((item) => (
          <li key={item.target}>
            <a
              href={`#${SECTION_IDS[item.target]}`}
              onClick={onNavigate?.(item.target)}
              className="block rounded-lg px-3 py-3 text-base font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              {item.label}
            </a>
          </li>
        ))}
        <li className="mt-2 border-t border-slate-200 pt-2">
          <a
            href="/select-account"
            className="block rounded-lg px-3 py-3 text-base font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Log in
          </a>
        </li>
      </ul>
    </nav>
  );
}

function TopBar() {
  const fixed = useScrolledPast(FIXED_BAR_AFTER_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    menuRef.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButtonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const onResize = () => {
      if (window.innerWidth >= BREAKPOINTS.sm) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('resize', onResize);
    };
  }, [menuOpen]);

  const go = (target: Target) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setMenuOpen(false);
    scrollToTarget(target);
  };

  return (
    <header ref={headerRef} className={topBarClass(fixed)}>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5 sm:px-8">
        <a
          href="#top"
          onClick={go('home')}
          aria-label="Giftmart"
          className="rounded focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600"
        >
          <WordmarkMark />
        </a>

        <nav aria-label="Main" className="hidden sm:block">
          <ul className="flex items-center gap-0.5 lg:gap-1">
            {NAV.map((item) => (
              <li key={item.target}>
                <a href={`#${SECTION_IDS[item.target]}`} onClick={go(item.target)} className={navLinkClass}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          <a
            href="/select-account"
            className="hidden rounded-lg border border-brand-200 bg-white px-4 py-2 text-sm font-semibold text-brand-700 transition hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 lg:inline-flex"
          >
            Log in
          </a>
          <button
            ref={menuButtonRef}
            type="button"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="landing-menu"
            onClick={() => setMenuOpen((open) => !open)}
            className="flex h-11 w-11 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:hidden"
          >
            <Icon name={menuOpen ? 'close' : 'menu'} />
          </button>
        </div>
      </div>

      {menuOpen ? <MobileMenu ref={menuRef} onNavigate={go} /> : null}
    </header>
  );
}

const ctaClass =
  'inline-flex items-center justify-center gap-2 rounded-lg px-6 py-3 text-base font-semibold shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

const heroPoints = [
  'Cards issued only after payment is confirmed',
  'Secret codes only the owner can see',
  'Prices in naira, no sign-up fee',
];

function Hero() {
  return (
    <section
      id="top"
      tabIndex={-1}
      aria-labelledby="hero-title"
      style={{ '--hero-min': `${ANCHORS.about}px` } as CSSProperties}
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-brand-50/40 to-white px-5 pt-28 pb-16 outline-none sm:px-8 lg:pt-32 xl:flex xl:min-h-(--hero-min) xl:items-center xl:pt-16 xl:pb-8"
    >
      <div className="mx-auto grid w-full max-w-6xl items-center gap-12 lg:grid-cols-2">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-sm font-medium text-brand-800">
            <Icon name="gift" className="h-4 w-4" />
            Gift cards from businesses you love
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl leading-tight font-extrabold tracking-tight text-slate-900 sm:text-5xl xl:text-[3.4rem]"
          >
            Buy, keep, spend and send gift cards <span className="text-brand-600">in one place</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-slate-600">
            Giftmart is the best and most trusted platform to buy gift cards and shop at any marketplace.
            Businesses design and sell their own cards; you pay in naira, keep every card safe, spend it in
            parts and send it to the people you care about.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <a href="/select-account" className={`${ctaClass} bg-brand-600 text-white hover:bg-brand-700`}>
              Create an account
            </a>
            <a
              href="/login"
              className={`${ctaClass} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
            >
              Use the Web App
            </a>
          </div>
          <ul className="mt-8 space-y-2 text-sm text-slate-700">
            {heroPoints.map((point) => (
              <li key={point} className="flex items-center gap-2">
                <span className="flex h-5 w-5 items-center justify-center rounded-full bg-green-100 text-green-800">
                  <Icon name="check" className="h-3.5 w-3.5" />
                </span>
                {point}
              </li>
            ))}
          </ul>
        </div>
        <HeroIllustration className="mx-auto w-full max-w-md lg:max-w-none" />
      </div>
    </section>
  );
}

function Footer() {
  const email = useSupportEmail();
  const year = new Date().getFullYear();
  const linkClass =
    'rounded text-slate-200 underline-offset-4 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300';
  return (
    <footer className="bg-slate-900 px-5 pt-14 pb-8 text-slate-300 sm:px-8">
      <div className="mx-auto grid max-w-6xl gap-10 md:grid-cols-3">
        <div>
          <WordmarkMark light />
          <p className="mt-4 max-w-xs text-sm leading-6">
            The gift-card marketplace for Nigerian businesses and the people who shop with them.
          </p>
        </div>
        <div id="support" tabIndex={-1} className="outline-none">
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Need help?</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <a href={`mailto:${email}`} className={`${linkClass} inline-flex items-center gap-2`}>
                <Icon name="mail" className="h-4 w-4" />
                {email}
              </a>
            </li>
            <li>
              <a href="/faqs" className={linkClass}>
                FAQs
              </a>
            </li>
            <li>
              <a href="/balance" className={linkClass}>
                Check a card balance
              </a>
            </li>
            <li>
              <a href="/support" className={linkClass}>
                Customer support
              </a>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Legal</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <a href="/terms" className={linkClass}>
                Terms of use and privacy
              </a>
            </li>
          </ul>
        </div>
      </div>
      <p className="mx-auto mt-12 max-w-6xl border-t border-slate-700 pt-6 text-sm text-slate-300">
        {`© ${year} Giftmart. All rights reserved.`}
      </p>
    </footer>
  );
}

function ScrollTopButtonView({ onClick }: { onClick?: () => void }) {
  return (
    <button
      type="button"
      aria-label="Scroll to top"
      title="Scroll to top"
      onClick={onClick}
      className="fixed right-5 bottom-5 z-40 flex h-12 w-12 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-900/25 transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:right-8 sm:bottom-8"
    >
      <Icon name="arrowUp" />
    </button>
  );
}

function ScrollTopButton() {
  const visible = useScrolledPast(SCROLL_TOP_AFTER_PX);
  if (!visible) return null;
  return <ScrollTopButtonView onClick={scrollToTop} />;
}

/** The parts the page adds later (the open menu, the scroll-to-top button), for the pre-rendered page's script. */
export function LandingTemplates() {
  return (
    <>
      <template id="landing-menu">
        <MobileMenu />
      </template>
      <template id="landing-scroll-top">
        <ScrollTopButtonView />
      </template>
      <template id="landing-section-error">
        <SectionLoadError message="" />
      </template>
    </>
  );
}

/** Seed §2 "Landing page". */
export default function LandingPage() {
  return (
    // No scroll anchoring: when a section above the view reveals its content, the browser would otherwise
    // move the page to keep what is on screen in place, and the bar's 900/1850/2950 px targets would drift.
    <div className="min-h-screen bg-white [overflow-anchor:none]">
      <a
        href="#main"
        className="sr-only rounded-lg bg-white px-4 py-2 font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <TopBar />
      <main id="main">
        <Hero />
        <LazySection
          id="about"
          eyebrow="About Giftmart"
          title="A marketplace for gift cards, built for Nigeria"
          intro="One account to buy cards from many businesses, and one place for businesses to sell them and get paid."
          load={loadAbout}
          placeholderHeight={1608}
          desktopMinHeight={ANCHORS.features - ANCHORS.about}
        />
        <div
          style={{ '--features-min': `${ANCHORS.getStarted - ANCHORS.features}px` } as CSSProperties}
          className="flex flex-col xl:min-h-(--features-min)"
        >
          <LazySection
            id="how-it-works"
            eyebrow="How it works / Features"
            title="Simple for businesses and buyers"
            intro="Four steps on each side, from sign-up to money in the bank or a gift in someone’s hands."
            load={loadHowItWorks}
            placeholderHeight={1124}
            spacing="pt-24 pb-10"
            className="bg-slate-50"
          />
          <LazySection
            id="why-safe"
            eyebrow="Why it is safe"
            title="Safe from payment to payout"
            intro="Gift cards are money, so we protect them like money."
            load={loadSafety}
            placeholderHeight={560}
            layout="split"
            spacing="py-14 xl:py-12"
            className="flex-1 bg-brand-900 xl:flex xl:items-center"
            dark
          />
        </div>
        <LazySection
          id="get-started"
          eyebrow="Get started"
          title="Start with Giftmart today"
          intro="Pick the account that fits you. Signing up is free and takes a couple of minutes."
          load={loadGetStarted}
          placeholderHeight={1242}
          className="bg-gradient-to-b from-white to-brand-50/60 xl:min-h-screen"
        />
      </main>
      <Footer />
      <ScrollTopButton />
    </div>
  );
}
