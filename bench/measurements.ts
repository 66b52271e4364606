/** Small pieces the benchmarks share when they state what they measured. */
import { cpus, loadavg, totalmem } from 'node:os';

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

/** The machine line of the benchmarks that time whole commands: CPUs, model, memory, Node, and how peak RSS was read. */
export function machineLine(hasTime: boolean): string {
  return `Machine: ${cpus().length} CPUs (nproc), ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, node ${process.version}; peak RSS by ${hasTime ? '/usr/bin/time -v' : 'process.resourceUsage'}`;
}
