import type { RunConfig } from '../core/bench/run.js';
import { formatEndpoint } from '../protocol/wire/endpoint.js';
import { workDifferences } from '../core/bench/run-work.js';

export type ResumeCheck = { readonly ok: true } | { readonly ok: false; readonly reasons: readonly string[] };

function showEndpoint(config: RunConfig): string {
  if (config.embeddedServer !== null) return `embedded reference server (${config.embeddedServer.model})`;
  return formatEndpoint(config.endpoint);
}

const show = (v: string | null): string => (v === null ? 'none' : JSON.stringify(v));

/**
 * Whether a stored run may be continued with the configuration of the current command.
 * Refuses, naming every difference, when the cases would not be comparable: another
 * dataset, revision or split, another case set, changed questions, another model or
 * another endpoint. Settings that do not change answers (parallelism, timeout, retries,
 * price) may differ.
 */
export function checkResumable(stored: RunConfig, now: RunConfig): ResumeCheck {
  const reasons = workDifferences(stored, now, {
    was: 'stored',
    now: 'now',
    onlyInWas: 'not in this run',
    onlyInNow: 'new in this run',
  });
  if (stored.model !== now.model) reasons.push(`model: stored ${show(stored.model)}, now ${show(now.model)}`);
  const storedEndpoint = showEndpoint(stored);
  const nowEndpoint = showEndpoint(now);
  if (storedEndpoint !== nowEndpoint) reasons.push(`endpoint: stored ${storedEndpoint}, now ${nowEndpoint}`);

  return reasons.length === 0 ? { ok: true } : { ok: false, reasons };
}
