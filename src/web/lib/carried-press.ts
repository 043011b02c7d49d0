/**
 * A press on a pre-rendered page's link that the app's drawing cuts in two (issue 14). The app draws its own
 * page over the build's copy rather than hydrating it, so when a link is pressed on the build's copy and
 * released on the app's, the two halves fall on different elements and the browser makes no click of them:
 * the press did nothing (a CI run of the browser tests lost a click on /select-account that way). This carries
 * it over: a release whose press was on a link that is gone since, on the app's link to the same address,
 * clicks that link, as the one press would have.
 */
export interface PressWatch {
  /** The app's page is in place: stop once no press that began on the old page is still held. */
  stop(): void;
}

const linkAt = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLAnchorElement>('a[href]') : null;

/** A plain press (main button, no key held): one that opens in another tab or window is left to the browser. */
const isPlain = (event: PointerEvent) =>
  event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;

/**
 * The link of a plain press that began before this code ran and is still held, as index.html's loader noted it
 * (scripts/first-paint-html.ts); the loader stops watching. Null without the loader (the dev server's page).
 */
export function takeEarlyPress(): HTMLAnchorElement | null {
  const loader = window as { giftmartHeldPress?: () => Element | null };
  const link = loader.giftmartHeldPress?.() ?? null;
  delete loader.giftmartHeldPress;
  return link instanceof HTMLAnchorElement ? link : null;
}

export function carryPressAcrossDraw(
  root: HTMLElement,
  /** A press still held that began before this watch (takeEarlyPress). */
  early: HTMLAnchorElement | null = null,
): PressWatch {
  let pressed: HTMLAnchorElement | null = early && root.contains(early) ? early : null;
  let stopping = false;
  const end = () => {
    document.removeEventListener('pointerdown', down, true);
    document.removeEventListener('pointerup', up, true);
  };
  function down(event: PointerEvent) {
    const link = linkAt(event.target);
    pressed = !stopping && link && root.contains(link) && isPlain(event) ? link : null;
  }
  function up(event: PointerEvent) {
    const before = pressed;
    pressed = null;
    // Still on the page: the browser's own click follows.
    if (before && !before.isConnected && isPlain(event)) {
      const link = linkAt(event.target);
      if (link && root.contains(link) && link.getAttribute('href') === before.getAttribute('href'))
        link.click();
    }
    if (stopping) end();
  }
  document.addEventListener('pointerdown', down, true);
  document.addEventListener('pointerup', up, true);
  return {
    stop() {
      stopping = true;
      if (!pressed) end();
    },
  };
}
