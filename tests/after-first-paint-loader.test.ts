import { describe, expect, it } from 'vitest';
import { afterFirstPaintLoader } from '../scripts/first-paint-html';

/**
 * index.html's loader (ADR 029) run against a small stand-in for the browser: what it adds to the page, and
 * when. The browser tests run the real thing on every page; these cover the branches a test browser never
 * takes (a hidden tab, no paint timing, the fallback timer).
 */
const LOADER = afterFirstPaintLoader(
  '/assets/index-a.js',
  ['/assets/start-b.js'],
  [
    { pattern: '^/user-dashboard/?$', files: ['/assets/home-c.js', '/assets/layout-d.js'] },
    { pattern: '^/user-dashboard/', files: ['/assets/layout-d.js'] },
  ],
);

interface Page {
  visibilityState?: 'visible' | 'hidden';
  readyState?: 'loading' | 'interactive' | 'complete';
  paintTiming?: boolean;
  pathname?: string;
}

/** A stand-in element: a link to `href` or not, inside the page's root or not, on the page or gone. */
class Element {
  isConnected = true;
  clicks = 0;
  constructor(
    readonly href: string | null,
    readonly inRoot = true,
  ) {}
  closest(selector: string) {
    return selector === 'a[href]' && this.href !== null ? this : null;
  }
  getAttribute(name: string) {
    return name === 'href' ? this.href : null;
  }
  click() {
    this.clicks += 1;
  }
}

function load(page: Page = {}) {
  const added: Record<string, unknown>[] = [];
  const listeners = new Map<string, (event?: unknown) => void>();
  const timers: { run: () => void; ms: number }[] = [];
  let report: ((names: string[]) => void) | undefined;
  let disconnected = false;
  class PerformanceObserver {
    static supportedEntryTypes = ['paint', 'resource'];
    observed: unknown;
    constructor(callback: (list: unknown, observer: PerformanceObserver) => void) {
      report = (names) =>
        callback({ getEntriesByName: (name: string) => (names.includes(name) ? [{ name }] : []) }, this);
    }
    observe(options: unknown) {
      this.observed = options;
    }
    disconnect() {
      disconnected = true;
    }
  }
  const document = {
    visibilityState: page.visibilityState ?? 'visible',
    readyState: page.readyState ?? 'interactive',
    head: { appendChild: (element: Record<string, unknown>) => added.push(element) },
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, listener: () => void) => listeners.set(type, listener),
    removeEventListener: (type: string, listener: () => void) => {
      if (listeners.get(type) === listener) listeners.delete(type);
    },
    getElementById: (id: string) =>
      id === 'root' ? { contains: (element: Element) => element.inRoot } : null,
  };
  const window: { PerformanceObserver?: unknown; giftmartPageDrawn?: () => void } =
    page.paintTiming === false ? {} : { PerformanceObserver };
  new Function('window', 'document', 'location', 'setTimeout', 'Element', LOADER)(
    window,
    document,
    { pathname: page.pathname ?? '/user-dashboard' },
    (run: () => void, ms: number) => timers.push({ run, ms }),
    Element,
  );
  const tags = () =>
    added.map((element) =>
      element.tag === 'script'
        ? `script ${String(element.type)} ${String(element.src)} ${String(element.crossOrigin)}`
        : `${String(element.rel)} ${String(element.href)} ${String(element.crossOrigin)}`,
    );
  const pointer =
    (type: string) =>
    (target: unknown, keys: Record<string, unknown> = {}) =>
      listeners.get(type)?.({ target, button: 0, ...keys });
  return {
    tags,
    listeners,
    press: pointer('pointerdown'),
    release: pointer('pointerup'),
    pageDrawn: () => window.giftmartPageDrawn!(),
    timers,
    paint: (...names: string[]) => report!(names),
    disconnected: () => disconnected,
  };
}

const HOME = [
  'modulepreload /assets/start-b.js ',
  'modulepreload /assets/home-c.js ',
  'modulepreload /assets/layout-d.js ',
  'script module /assets/index-a.js ',
];

describe("index.html's loader asks for the app's code after the first paint (ADR 029)", () => {
  it('adds nothing until the first contentful paint, then the code, the address’s screens and the entry last', () => {
    const page = load();
    expect(page.tags()).toEqual([]);
    page.paint('first-paint');
    expect(page.tags()).toEqual([]);
    page.paint('first-paint', 'first-contentful-paint');
    expect(page.tags()).toEqual(HOME);
    expect(page.disconnected()).toBe(true);
    // The fallback timer, when it fires later, adds nothing twice.
    expect(page.timers.map((timer) => timer.ms)).toEqual([3000]);
    page.timers[0]!.run();
    expect(page.tags()).toEqual(HOME);
  });

  it('asks anyway after three seconds when no paint is reported', () => {
    const page = load();
    page.timers[0]!.run();
    expect(page.tags()).toEqual(HOME);
  });

  it('asks at once in a tab that is not visible, which paints nothing until shown', () => {
    expect(load({ visibilityState: 'hidden' }).tags()).toEqual(HOME);
  });

  it('without paint timing, asks once the document is parsed', () => {
    const parsing = load({ paintTiming: false, readyState: 'loading' });
    expect(parsing.tags()).toEqual([]);
    parsing.listeners.get('DOMContentLoaded')!();
    expect(parsing.tags()).toEqual(HOME);
    expect(load({ paintTiming: false, readyState: 'complete' }).tags()).toEqual(HOME);
  });

  it("adds the first matching address's screens, and none for an address without any", () => {
    const paint = (pathname: string) => {
      const page = load({ pathname });
      page.paint('first-contentful-paint');
      return page.tags();
    };
    expect(paint('/user-dashboard/')).toEqual(HOME);
    expect(paint('/user-dashboard/profile')).toEqual([
      'modulepreload /assets/start-b.js ',
      'modulepreload /assets/layout-d.js ',
      'script module /assets/index-a.js ',
    ]);
    expect(paint('/login')).toEqual([
      'modulepreload /assets/start-b.js ',
      'script module /assets/index-a.js ',
    ]);
  });

  it('cannot be closed early by an address in its data', () => {
    const loader = afterFirstPaintLoader('/assets/</script><script>alert(1)//.js', [], []);
    expect(loader).not.toContain('</script>');
  });
});

describe("index.html's loader carries a press on a link over the app's drawing", () => {
  /** The pre-rendered page's link pressed, the app's page drawn in its place, and the app's link to `href`. */
  function pressAcrossTheDraw(keys: Record<string, unknown> = {}, href = '/login') {
    const page = load();
    const built = new Element('/login');
    page.press(built, keys);
    built.isConnected = false;
    page.pageDrawn();
    const drawn = new Element(href);
    return { page, built, drawn };
  }

  it("clicks the app's link to the same address when the press is released on it", () => {
    const { page, drawn } = pressAcrossTheDraw();
    page.release(drawn);
    expect(drawn.clicks).toBe(1);
    // Done once no press is held: later presses are the browser's alone.
    expect(page.listeners.has('pointerdown')).toBe(false);
    expect(page.listeners.has('pointerup')).toBe(false);
  });

  it('clicks nothing for a release on another address, elsewhere, or with a key held', () => {
    const elsewhere = pressAcrossTheDraw({}, '/register');
    elsewhere.page.release(elsewhere.drawn);
    expect(elsewhere.drawn.clicks).toBe(0);
    const outside = pressAcrossTheDraw();
    outside.page.release(new Element('/login', false));
    expect(outside.drawn.clicks).toBe(0);
    const keyed = pressAcrossTheDraw();
    keyed.page.release(keyed.drawn, { ctrlKey: true });
    expect(keyed.drawn.clicks).toBe(0);
  });

  it('leaves a press with a key held, or another button, to the browser', () => {
    for (const keys of [
      { ctrlKey: true },
      { metaKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
    ]) {
      const { page, drawn } = pressAcrossTheDraw(keys);
      page.release(drawn);
      expect(drawn.clicks).toBe(0);
    }
  });

  it('clicks nothing for a press on no link of the page, or released before the drawing', () => {
    for (const target of [new Element(null), new Element('/login', false), {}]) {
      const page = load();
      page.press(target);
      page.pageDrawn();
      const drawn = new Element('/login');
      page.release(drawn);
      expect(drawn.clicks).toBe(0);
    }
    // Released while the pressed link is still there: the browser's own click follows.
    const page = load();
    const built = new Element('/login');
    page.press(built);
    page.release(built);
    expect(built.clicks).toBe(0);
  });

  it('stops at once when the app has drawn with no press held, and notes none begun after', () => {
    const idle = load();
    idle.pageDrawn();
    expect(idle.listeners.has('pointerdown')).toBe(false);
    expect(idle.listeners.has('pointerup')).toBe(false);
    // A press held at the drawing keeps the release listening; one begun afterwards is not carried.
    const { page, built } = pressAcrossTheDraw();
    page.press(built);
    const after = new Element('/login');
    page.release(after);
    expect(after.clicks).toBe(0);
    expect(page.listeners.has('pointerup')).toBe(false);
  });
});
