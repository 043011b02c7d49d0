/**
 * Runs `job` now and then every `intervalMs`, one run at a time (a slow run delays the next instead of
 * overlapping it); a failed run is reported and the next one still happens. Answers a function that stops
 * the timer and waits for a run in progress, so shutdown never cuts a job's transaction short.
 */
export function runPeriodically(
  job: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = running.then(() => (stopped ? undefined : job())).catch(onError);
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
