import { lazy, type ComponentType } from 'react';
import { ChunkLoadError } from '../lib/chunk-load-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../lib/constants';

let chunkCounter = 0;

/**
 * React.lazy with the seed's 120-second chunk time-out. A chunk that fails or times out becomes a
 * ChunkLoadError, which the route error screen turns into a message with a reload button.
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const n = (chunkCounter += 1);
  // One download, shared by preload() (started early, see router.tsx) and React.lazy (when it renders).
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loadOnce = () => {
    loading ??= load();
    return loading;
  };
  const component = lazy(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ChunkLoadError(`Loading chunk ${n} failed. (timeout: ${location.pathname})`)),
        CHUNK_LOAD_TIMEOUT_MS,
      );
    });
    return Promise.race([loadOnce(), timeout])
      .catch((error: unknown) => {
        if (error instanceof ChunkLoadError) throw error;
        throw new ChunkLoadError(
          `Loading chunk ${n} failed. (${error instanceof Error ? error.message : 'error'})`,
        );
      })
      .finally(() => clearTimeout(timer));
  });
  /** Starts downloading the screen's code now; a failure is left for React.lazy to report when it renders. */
  const preload = () => {
    loadOnce().catch(() => undefined);
  };
  return Object.assign(component, { preload });
}
