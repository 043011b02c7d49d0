import { lazy, useState, type ComponentType } from 'react';
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
  /** The screen once its code is here: drawn at once, without suspending (a pre-rendered page, see main.tsx). */
  let loaded: ComponentType<P> | undefined;
  const loadOnce = () => {
    loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    });
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
  /**
   * Starts downloading the screen's code now; resolves when it is here, or failed to come (a failure is left
   * for React.lazy to report when it renders).
   */
  const preload = () =>
    loadOnce().then(
      () => undefined,
      () => undefined,
    );
  /**
   * Each use decides once, when it first draws: the screen itself if its code is already here, React.lazy
   * (suspending until it is) otherwise. Deciding once keeps a screen from being drawn anew when its code lands.
   */
  function Screen(props: P) {
    const [Loaded] = useState(() => loaded);
    const Component = Loaded ?? component;
    return <Component {...props} />;
  }
  return Object.assign(Screen, { preload });
}
