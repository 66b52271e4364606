/** Where a benchmark run stands, as the runner counts it. */
export interface RunProgress {
  readonly casesDone: number;
  readonly casesTotal: number;
  readonly decisionsDone: number;
  readonly decisionsTotal: number;
  /** Failed cases so far. */
  readonly errors: number;
  readonly elapsedMs: number;
}

export interface ProgressRates {
  /** decisionsDone / decisionsTotal, or null with nothing to do. */
  readonly fraction: number | null;
  /** null before the first decision or with no elapsed time. */
  readonly decisionsPerMinute: number | null;
  /** null while the rate is unknown; 0 when every decision is done. */
  readonly etaMs: number | null;
}

/** Rates from the given numbers only (no clock): fraction done, decisions per minute, ETA. */
export function progressRates(p: RunProgress): ProgressRates {
  const fraction = p.decisionsTotal > 0 ? Math.min(1, p.decisionsDone / p.decisionsTotal) : null;
  const remaining = Math.max(0, p.decisionsTotal - p.decisionsDone);
  const perMs = p.elapsedMs > 0 && p.decisionsDone > 0 ? p.decisionsDone / p.elapsedMs : null;
  return {
    fraction,
    decisionsPerMinute: perMs === null ? null : perMs * 60_000,
    etaMs: remaining === 0 ? 0 : perMs === null ? null : remaining / perMs,
  };
}
