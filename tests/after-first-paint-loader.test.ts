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

/** A stand-in element: a link or not, inside the page's root or not. */
class Element {
  constructor(
    readonly isLink: boolean,
    readonly inRoot = true,
  ) {}
  closest(selector: string) {
    return selector === 'a[href]' && this.isLink ? this : null;
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
  const window: { PerformanceObserver?: unknown; giftmartHeldPress?: () => unknown } =
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
  const press = (target: unknown, keys: Record<string, unknown> = {}) =>
    listeners.get('pointerdown')!({ target, button: 0, ...keys });
  return {
    tags,
    listeners,
    press,
    release: () => listeners.get('pointerup')!({}),
    heldPress: () => window.giftmartHeldPress!(),
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

describe("index.html's loader notes a press on a link held while the app's code comes", () => {
  it('hands the app the link still pressed, and then stops watching', () => {
    const page = load();
    const link = new Element(true);
    page.press(link);
    expect(page.heldPress()).toBe(link);
    expect(page.listeners.has('pointerdown')).toBe(false);
    expect(page.listeners.has('pointerup')).toBe(false);
  });

  it('forgets a press once released, and one on no link of the page', () => {
    const page = load();
    page.press(new Element(true));
    page.release();
    expect(page.heldPress()).toBeNull();
    for (const target of [new Element(false), new Element(true, false), {}]) {
      const again = load();
      again.press(target);
      expect(again.heldPress()).toBeNull();
    }
  });

  it('leaves a press with a key held, or another button, to the browser', () => {
    for (const keys of [
      { ctrlKey: true },
      { metaKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
    ]) {
      const page = load();
      page.press(new Element(true), keys);
      expect(page.heldPress()).toBeNull();
    }
  });
});
