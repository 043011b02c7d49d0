import type { ApiError as ApiErrorBody, FieldErrors } from '../../shared/errors';

/** An error answer from the API, parsed into the same `{ code, message, details }` shape the server sends. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.details = body.details;
  }

  get fieldErrors(): FieldErrors {
    return (this.details?.fieldErrors as FieldErrors | undefined) ?? {};
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** The server is the truth about the session: any 401 tells the app to forget the stored profile. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `Idempotency-Key` on a purchase. */
  headers?: Record<string, string>;
  /** Login answers 401 for a wrong password; that is not a lost session. */
  expectUnauthorized?: boolean;
}

/** How long a response fetched at start-up stays good for the screen that asked for it. */
const EARLY_FETCH_FRESH_MS = 10_000;
const early = new Map<string, { startedAt: number; response: Promise<unknown> }>();

/**
 * Opening a screen by its address: its first GET starts at start-up, in parallel with the screen's code,
 * instead of after that code has loaded and rendered (issue 14). The screen's own first GET of the same path
 * takes it, once, within 10 seconds; an error is the screen's to report, as if it had asked itself.
 */
export function fetchEarly(path: string): void {
  if (early.has(path)) return;
  const response = request<unknown>(path, {});
  response.catch(() => undefined);
  early.set(path, { startedAt: Date.now(), response });
}

function takeEarly<T>(path: string): Promise<T> | undefined {
  const found = early.get(path);
  early.delete(path);
  if (!found || Date.now() - found.startedAt > EARLY_FETCH_FRESH_MS) return undefined;
  return found.response as Promise<T>;
}

export function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const plainGet = (options.method ?? 'GET') === 'GET' && options.body === undefined && !options.headers;
  return (plainGet ? takeEarly<T>(path) : undefined) ?? request<T>(path, options);
}

async function request<T>(path: string, options: RequestOptions): Promise<T> {
  const isForm = options.body instanceof FormData;
  const headers: Record<string, string> = {
    ...(options.body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      headers: Object.keys(headers).length > 0 ? headers : undefined,
      body:
        options.body === undefined
          ? undefined
          : isForm
            ? (options.body as FormData)
            : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, {
      code: 'NETWORK_ERROR',
      message: 'We could not reach Giftmart. Check your internet connection and try again.',
    });
  }

  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const parsed =
      body && typeof body === 'object' && 'message' in body
        ? (body as ApiErrorBody)
        : { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' };
    if (response.status === 401 && !options.expectUnauthorized) unauthorizedListeners.forEach((l) => l());
    throw new ApiError(response.status, parsed);
  }
  return body as T;
}
