/** Small pieces the benchmarks share when they state what they measured. */
import { loadavg } from 'node:os';

/** The median of the benchmarks' repeated measurements (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The 1-minute load average, as /proc/loadavg states it: other work on the machine inflates wall times. */
export function oneMinuteLoad(): string {
  return loadavg()[0]!.toFixed(2);
}
