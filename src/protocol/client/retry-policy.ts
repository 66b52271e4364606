/** Statuses a client retries: rate limited, bad gateway, unavailable (loading), gateway timeout. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly retries: number;
  /** First backoff step, ms (default 500); doubles each retry. */
  readonly baseDelayMs: number;
  /** Cap on any wait, including a server's `Retry-After` (default 10 000). */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 10_000 };

/**
 * The wait before retry number `retryIndex` (0 for the first retry). A server's
 * `Retry-After` wins, capped at `maxDelayMs`; otherwise capped exponential backoff with
 * "equal jitter": half the step fixed, half drawn from `random` (in [0, 1)).
 */
export function backoffDelayMs(
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs: number | null,
): number {
  if (retryAfterMs !== null) return Math.min(policy.maxDelayMs, Math.max(0, retryAfterMs));
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const r = Math.min(Math.max(random(), 0), 1);
  return step / 2 + (r * step) / 2;
}

/**
 * `Retry-After` as a wait in ms: delta-seconds ("3", "1.5" tolerated) or an HTTP date
 * (relative to `nowEpochMs`; a date in the past means 0). Null when absent or unreadable.
 */
export function parseRetryAfterMs(header: string | undefined | null, nowEpochMs: number): number | null {
  if (header === undefined || header === null) return null;
  const text = header.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // Date.parse accepts bare numbers such as "-3" as years: an HTTP date names a month.
  if (!/[a-z]{3}/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowEpochMs);
}
