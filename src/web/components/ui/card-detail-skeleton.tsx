/** The grey shapes a card's page shows while it loads: the card's tile and its details beside it. */
export function CardDetailSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-8 lg:flex-row">
      <span className="sr-only">{label}</span>
      <div
        aria-hidden="true"
        className="h-[212px] w-[337px] animate-pulse rounded-3xl bg-slate-200 sm:h-[255px] sm:w-[405px]"
      />
      <div aria-hidden="true" className="h-64 flex-1 animate-pulse rounded-2xl bg-slate-200" />
    </div>
  );
}
