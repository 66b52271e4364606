/** The server's slots: requests answered at once; more wait, in order, as "deferred". */
import type { ServerMetrics } from './metrics.js';

export interface RequestSlots {
  /** Resolves once a slot is free (at once when one is). */
  acquire(): Promise<void>;
  /** Frees a slot, handing it to the request that waited longest. */
  release(): void;
}

export function createRequestSlots(slots: number, metrics: ServerMetrics): RequestSlots {
  let busy = 0;
  const waiting: Array<() => void> = [];
  return {
    async acquire() {
      if (busy < slots) busy++;
      else {
        const p = new Promise<void>((resolve) => waiting.push(resolve));
        metrics.setSlots(busy, waiting.length);
        await p;
      }
      metrics.setSlots(busy, waiting.length);
    },
    release() {
      const next = waiting.shift();
      if (next) next();
      else busy--;
      metrics.setSlots(busy, waiting.length);
    },
  };
}
