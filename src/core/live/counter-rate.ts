/**
 * Per-second rates from monotonic counters read at two moments (Prometheus counters such
 * as llama.cpp's `prompt_tokens_total`). A counter that is missing at either end, or that
 * went down (the server restarted and reset it), gives no rate rather than a negative one.
 */
export interface CounterReading {
  /** Milliseconds on the caller's monotonic clock. */
  readonly atMs: number;
  readonly value: number | null;
}

/** (later - earlier) / seconds between them; null when unknown, reset or no time passed. */
export function counterRate(earlier: CounterReading, later: CounterReading): number | null {
  if (earlier.value === null || later.value === null) return null;
  const seconds = (later.atMs - earlier.atMs) / 1000;
  if (!(seconds > 0)) return null;
  const delta = later.value - earlier.value;
  if (delta < 0) return null;
  return delta / seconds;
}

/** True when a counter went down between two readings (a restart). */
export function counterWasReset(earlier: number | null, later: number | null): boolean {
  return earlier !== null && later !== null && later < earlier;
}
