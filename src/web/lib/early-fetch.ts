import { api } from './api';

/** How long a response fetched at start-up stays good for the screen that asked for it. */
const EARLY_FETCH_FRESH_MS = 10_000;

const early = new Map<string, { startedAt: number; response: Promise<unknown> }>();

/**
 * Opening a screen by its address: its first GET starts at start-up, in parallel with the screen's code,
 * instead of after that code has loaded and rendered (issue 14). The screen's own first request for the
 * same path takes it (takeEarly); an error is the screen's to report, as if it had asked itself.
 */
export function fetchEarly(path: string): void {
  if (early.has(path)) return;
  const response = api<unknown>(path);
  response.catch(() => undefined);
  early.set(path, { startedAt: Date.now(), response });
}

/** The response fetchEarly started for this path, once, while it is fresh; otherwise undefined. */
export function takeEarly<T>(path: string): Promise<T> | undefined {
  const found = early.get(path);
  early.delete(path);
  if (!found || Date.now() - found.startedAt > EARLY_FETCH_FRESH_MS) return undefined;
  return found.response as Promise<T>;
}
