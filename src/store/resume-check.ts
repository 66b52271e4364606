import type { RunConfig } from '../core/bench/run.js';
import { formatEndpoint } from '../protocol/wire/endpoint.js';

export type ResumeCheck = { readonly ok: true } | { readonly ok: false; readonly reasons: readonly string[] };

const MAX_NAMED = 5;

function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

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
  const reasons: string[] = [];
  if (stored.dataset.id !== now.dataset.id)
    reasons.push(`dataset: stored ${show(stored.dataset.id)}, now ${show(now.dataset.id)}`);
  if (stored.dataset.revision !== now.dataset.revision) {
    reasons.push(`dataset revision: stored ${show(stored.dataset.revision)}, now ${show(now.dataset.revision)}`);
  }
  const [was, is] = [stored.dataset.file, now.dataset.file];
  if (was && is && was.sha256 !== is.sha256)
    reasons.push(
      `dataset file content: stored sha256 ${was.sha256.slice(0, 12)}… (${was.path}), now ${is.sha256.slice(0, 12)}… (${is.path})`,
    );
  if (stored.dataset.split !== now.dataset.split)
    reasons.push(`dataset split: stored ${show(stored.dataset.split)}, now ${show(now.dataset.split)}`);

  const storedCases = new Set(stored.caseIds);
  const nowCases = new Set(now.caseIds);
  const missing = [...storedCases].filter((id) => !nowCases.has(id));
  const added = [...nowCases].filter((id) => !storedCases.has(id));
  if (missing.length > 0 || added.length > 0) {
    const parts = [`stored ${storedCases.size} cases, now ${nowCases.size}`];
    if (missing.length > 0) parts.push(`not in this run: ${named(missing)}`);
    if (added.length > 0) parts.push(`new in this run: ${named(added)}`);
    reasons.push(`case set: ${parts.join('; ')}`);
  }

  const keys = [...new Set([...Object.keys(stored.questionSet), ...Object.keys(now.questionSet)])].sort();
  const changed = keys.filter((k) => stored.questionSet[k] !== now.questionSet[k]);
  if (changed.length > 0)
    reasons.push(
      `question set: ${changed.length} question${changed.length === 1 ? ' differs' : 's differ'} (${named(changed)})`,
    );

  if (stored.model !== now.model) reasons.push(`model: stored ${show(stored.model)}, now ${show(now.model)}`);
  const storedEndpoint = showEndpoint(stored);
  const nowEndpoint = showEndpoint(now);
  if (storedEndpoint !== nowEndpoint) reasons.push(`endpoint: stored ${storedEndpoint}, now ${nowEndpoint}`);

  return reasons.length === 0 ? { ok: true } : { ok: false, reasons };
}
