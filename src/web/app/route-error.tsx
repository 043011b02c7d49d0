import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '../components/ui/button';
import { ChunkLoadError } from '../lib/chunk-load-error';

/** What a person sees instead of a blank page when a screen fails to load or render. */
export function RouteError() {
  const error = useRouteError();
  const chunk =
    error instanceof ChunkLoadError ||
    (error instanceof Error && /dynamically imported module|Loading chunk/i.test(error.message));
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div role="alert" className="max-w-md rounded-2xl bg-white p-8 text-center shadow-lg">
        <h1 className="text-xl font-bold text-slate-900">
          {chunk ? 'This page did not load' : notFound ? 'Page not found' : 'Something went wrong'}
        </h1>
        <p className="mt-3 text-slate-600">
          {chunk
            ? 'Part of Giftmart could not be downloaded. Check your internet connection, then reload the page.'
            : notFound
              ? 'The page you asked for does not exist.'
              : 'An unexpected error stopped this screen. Reloading usually helps.'}
        </p>
        {chunk && error instanceof Error ? (
          <p className="mt-2 text-xs text-slate-500">{error.message}</p>
        ) : null}
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Link
            to="/"
            className="rounded-lg px-5 py-2.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            Go home
          </Link>
        </div>
      </div>
    </main>
  );
}
