/**
 * The built index.html fetches the app's stylesheet without letting it block the first paint (its loading
 * screen is styled inline; scripts/first-paint-html.ts, ADR 018). Before React draws anything the app turns
 * the stylesheet on and waits until it has loaded, so no screen is seen unstyled. If it fails to load the
 * app still starts (unstyled beats blank). In development Vite injects the CSS itself: nothing to wait for.
 */
export function applyDeferredStyles(root: ParentNode = document): Promise<void> {
  const links = [...root.querySelectorAll<HTMLLinkElement>('link[data-deferred-style]')];
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          link.removeAttribute('data-deferred-style');
          if (link.sheet) {
            link.media = 'all';
            resolve();
            return;
          }
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
          link.media = 'all';
        }),
    ),
  ).then(() => undefined);
}
