/**
 * The built index.html fetches the app's stylesheet without letting it block the first paint (its loading
 * screen is styled inline; scripts/first-paint-html.ts, ADR 018). Before React draws anything the app turns
 * the stylesheet on and waits until it has loaded, so no screen is seen unstyled. In development Vite
 * injects the CSS itself: nothing to wait for.
 */
export function applyDeferredStyles(): Promise<void> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-deferred-style]')];
  return Promise.all(links.map(switchOn)).then(() => undefined);
}

/**
 * A stylesheet that has not loaded yet may still be on its way or may have failed already (its events fired
 * before this code ran). It is replaced by a copy that is switched on: the browser hands the copy the
 * download in flight, or the failure; after a failure a second copy asks again under a new address. If that
 * fails too, the app starts anyway: unstyled beats a loading screen that never ends.
 */
async function switchOn(link: HTMLLinkElement): Promise<void> {
  link.removeAttribute('data-deferred-style');
  if (hasRules(link)) {
    link.media = 'all';
    return;
  }
  const first = await replaceWithCopy(link, link.href);
  if (!first.loaded)
    await replaceWithCopy(first.element, `${link.href}${link.href.includes('?') ? '&' : '?'}again`);
}

/**
 * Loaded: a stylesheet that failed has a sheet too, one whose rules cannot be read (the app's own
 * stylesheet, same-origin, can always be read once it has loaded).
 */
function hasRules(link: HTMLLinkElement): boolean {
  try {
    return (link.sheet?.cssRules.length ?? 0) > 0;
  } catch {
    return false;
  }
}

function replaceWithCopy(link: HTMLLinkElement, href: string) {
  return new Promise<{ element: HTMLLinkElement; loaded: boolean }>((resolve) => {
    const copy = link.cloneNode() as HTMLLinkElement;
    copy.media = 'all';
    copy.href = href;
    copy.addEventListener('load', () => resolve({ element: copy, loaded: true }), { once: true });
    copy.addEventListener('error', () => resolve({ element: copy, loaded: false }), { once: true });
    link.replaceWith(copy);
  });
}
