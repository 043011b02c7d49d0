import { Suspense, type ComponentType, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { PublicOnly } from '../guards';

function PageLoading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-live="polite">
      <span
        className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600"
        aria-hidden="true"
      />
      <span className="sr-only">Loading…</span>
    </div>
  );
}

/** A lazily loaded screen, with a spinner while its code arrives. */
export const page = (node: ReactNode) => <Suspense fallback={<PageLoading />}>{node}</Suspense>;

/** A screen only for signed-out visitors (a signed-in one goes to their dashboard). */
export const publicPage = (node: ReactNode) => page(<PublicOnly>{node}</PublicOnly>);

/** A route's `handle`: its lazily loaded screen, so start-up can fetch the code an address opens (router.tsx). */
export interface ScreenHandle {
  screen: { preload(): Promise<void> };
}

/** A route's screen: drawn lazily with its spinner, and named in the route's handle. */
export function screen<P extends object>(
  Screen: ComponentType<P> & ScreenHandle['screen'],
  ...props: keyof P extends never ? [] : [P]
): Pick<RouteObject, 'element' | 'handle'> {
  const handle: ScreenHandle = { screen: Screen };
  return { element: page(<Screen {...((props[0] ?? {}) as P)} />), handle };
}

/** A screen only for signed-out visitors, named in the route's handle. */
export function publicScreen(
  Screen: ComponentType & ScreenHandle['screen'],
): Pick<RouteObject, 'element' | 'handle'> {
  const handle: ScreenHandle = { screen: Screen };
  return { element: publicPage(<Screen />), handle };
}
