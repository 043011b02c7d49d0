import {
  Component,
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { ChunkLoadError } from '../../lib/chunk-load-error';
import { CHUNK_LOAD_TIMEOUT_MS, LAZY_SECTION_DELAY_MS } from '../../lib/constants';

type SectionModule = { default: ComponentType };

/** Downloads a section's code, failing as seed §8's ChunkLoadError on an error or after the 120-second time-out. */
function loadSection(id: string, load: () => Promise<SectionModule>): Promise<SectionModule> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading chunk ${id} failed. (timeout)`)),
      CHUNK_LOAD_TIMEOUT_MS,
    );
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      if (error instanceof ChunkLoadError) throw error;
      throw new ChunkLoadError(
        `Loading chunk ${id} failed. (${error instanceof Error ? error.message : 'error'})`,
      );
    })
    .finally(() => clearTimeout(timer));
}

/** The loading animation a lazy section shows until its content is revealed. */
export function SectionLoading({ minHeight, dark = false }: { minHeight?: number; dark?: boolean }) {
  const bar = dark ? 'bg-white/15' : 'bg-slate-200';
  return (
    <div
      role="status"
      aria-label="Loading…"
      // The reserved height only matters on narrow screens; on desktop the section's own minimum height holds the layout.
      className="flex min-h-(--placeholder-min) flex-col items-center justify-start gap-4 py-10 xl:min-h-0"
      style={minHeight ? ({ '--placeholder-min': `${minHeight}px` } as CSSProperties) : undefined}
    >
      <span
        className={`h-10 w-10 animate-spin rounded-full border-4 ${dark ? 'border-white/25 border-t-amber-300' : 'border-brand-200 border-t-brand-600'}`}
        aria-hidden="true"
      />
      <span className={`text-sm font-medium ${dark ? 'text-brand-100' : 'text-slate-600'}`}>Loading…</span>
      <div className="mt-4 grid w-full max-w-3xl gap-3 motion-safe:animate-pulse" aria-hidden="true">
        <div className={`h-4 w-3/4 rounded ${bar}`} />
        <div className={`h-4 w-full rounded ${bar}`} />
        <div className={`h-4 w-5/6 rounded ${bar}`} />
      </div>
    </div>
  );
}

interface BoundaryState {
  error: Error | null;
}

/** A section whose code fails to download says so (seed §8's "Loading chunk n failed") instead of breaking the page. */
class SectionErrorBoundary extends Component<{ children: ReactNode; error?: Error | null }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override render() {
    const error = this.props.error ?? this.state.error;
    if (!error) return this.props.children;
    return <SectionLoadError message={error.message} onReload={() => window.location.reload()} />;
  }
}

/** What a section whose code did not arrive shows; `onReload` is absent in the build's pre-rendered template. */
export function SectionLoadError({ message, onReload }: { message: string; onReload?: () => void }) {
  return (
    <div
      role="alert"
      className="mx-auto max-w-xl rounded-2xl border border-red-200 bg-red-50 p-6 text-center"
    >
      <p className="font-semibold text-red-800">This part of the page did not load.</p>
      <p className="mt-1 text-sm text-red-800">Check your internet connection, then reload the page.</p>
      <p className="mt-2 text-xs text-red-700" data-error-message="">
        {message}
      </p>
      <button
        type="button"
        onClick={onReload}
        className="mt-4 rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
      >
        Reload
      </button>
    </div>
  );
}

/**
 * True while the build pre-renders the landing page (scripts/prerender.mjs): each section then leaves a
 * marker after its loading animation where the build puts the section's body inside <noscript>.
 */
export const PrerenderContext = createContext(false);

interface LazySectionProps {
  id: string;
  eyebrow: string;
  title: string;
  intro: ReactNode;
  /** Imports the section body (its default export); called when the section first comes into view. */
  load: () => Promise<SectionModule>;
  /** Height the loading placeholder reserves on narrow screens, about the height of the content it stands for. */
  placeholderHeight: number;
  /** Desktop minimum height (from the seed's anchor positions), applied from the xl breakpoint. */
  desktopMinHeight?: number;
  className?: string;
  /** Light text for dark backgrounds. */
  dark?: boolean;
  /** 'stacked': centred heading above the body; 'split': from lg, the heading in a column beside the body. */
  layout?: 'stacked' | 'split';
  /** Vertical padding; a section the top bar scrolls to keeps room for the fixed bar above its heading. */
  spacing?: string;
}

/**
 * A landing section whose heading is always there and whose body appears LAZY_SECTION_DELAY_MS after
 * the section first enters the viewport (seed §2), with a loading animation meanwhile.
 */
export function LazySection({
  id,
  eyebrow,
  title,
  intro,
  load,
  placeholderHeight,
  desktopMinHeight,
  className = '',
  dark = false,
  layout = 'stacked',
  spacing = 'pt-24 pb-16',
}: LazySectionProps) {
  const ref = useRef<HTMLElement>(null);
  const prerendering = useContext(PrerenderContext);
  // Without IntersectionObserver (very old browsers) the section counts as seen at once.
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const [delayOver, setDelayOver] = useState(false);
  const [Body, setBody] = useState<ComponentType | null>(null);
  const [loadError, setLoadError] = useState<Error | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setSeen(true);
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);

  useEffect(() => {
    if (!seen) return;
    // The code downloads during the delay, so the body is normally ready the moment the delay ends. It is
    // held in state rather than rendered through React.lazy, whose Suspense retry would add a visible lag.
    let current = true;
    loadSection(id, load).then(
      (module) => current && setBody(() => module.default),
      (error: Error) => current && setLoadError(error),
    );
    const timer = window.setTimeout(() => setDelayOver(true), LAZY_SECTION_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [seen, id, load]);

  const revealed = delayOver && (Body !== null || loadError !== null);
  const style = desktopMinHeight
    ? ({ '--section-min': `${desktopMinHeight}px` } as CSSProperties)
    : undefined;
  const split = layout === 'split';

  return (
    <section
      id={id}
      ref={ref}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      aria-busy={!revealed}
      style={style}
      className={`px-5 outline-none sm:px-8 ${spacing} ${desktopMinHeight ? 'xl:min-h-(--section-min)' : ''} ${className}`}
    >
      <div className={`mx-auto max-w-6xl ${split ? 'lg:grid lg:grid-cols-4 lg:items-start lg:gap-10' : ''}`}>
        <div
          className={split ? 'mx-auto max-w-3xl text-center lg:text-left' : 'mx-auto max-w-3xl text-center'}
        >
          <p
            className={`text-sm font-semibold tracking-wide uppercase ${dark ? 'text-amber-300' : 'text-brand-700'}`}
          >
            {eyebrow}
          </p>
          <h2
            id={`${id}-title`}
            className={`mt-2 font-extrabold tracking-tight ${split ? 'text-3xl' : 'text-3xl sm:text-4xl'} ${dark ? 'text-white' : 'text-slate-900'}`}
          >
            {title}
          </h2>
          <p
            className={`mt-3 ${split ? 'text-base' : 'text-lg'} ${dark ? 'text-brand-100' : 'text-slate-600'}`}
          >
            {intro}
          </p>
        </div>
        <div className={split ? 'mt-10 lg:col-span-3 lg:mt-0' : 'mt-8'}>
          {revealed ? (
            <SectionErrorBoundary error={loadError}>{Body ? <Body /> : null}</SectionErrorBoundary>
          ) : (
            <>
              <SectionLoading minHeight={placeholderHeight} dark={dark} />
              {prerendering ? <template data-noscript-body={id} /> : null}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
