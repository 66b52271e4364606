/**
 * What every probe report shares: the title line, how an estimate with its interval reads,
 * and what each probe's numbers mean for a benchmark score.
 */
import type { RobustnessProbeSummary, RobustnessSummary, Estimate } from '../../core/probe/robustness.js';
import type { ProbeRun } from '../../core/probe/run.js';
import { formatCount, formatNumber, formatPercent, formatSigned, plural } from '../format.js';

export function describeTarget(run: ProbeRun): string {
  const e = run.config.endpoint;
  return e.scheme === 'embedded'
    ? `${run.config.model ?? 'default model'} (built-in reference server)`
    : `${run.config.model ?? 'server default model'} at ${e.scheme}://${e.host}:${e.port}${e.path}`;
}

export function describeSample(run: ProbeRun): string {
  const c = run.config;
  const name = c.dataset.synthetic ? 'the synthetic sample' : c.dataset.id;
  return `${plural(c.caseIds.length, 'case')} of ${name} (seed ${c.seed}) · ${formatCount(run.requests)} requests in ${(run.durationMs / 1000).toFixed(1)} s`;
}

/** `12.0% [8.1%, 16.4%]` */
export function formatRate(e: Estimate | null): string {
  if (e === null) return 'n/a';
  return e.interval === null
    ? formatPercent(e.value)
    : `${formatPercent(e.value)} [${formatPercent(e.interval.low)}, ${formatPercent(e.interval.high)}]`;
}

/** `0.0123 [0.0101, 0.0150]` */
export function formatDistance(e: Estimate | null): string {
  if (e === null) return 'n/a';
  return e.interval === null
    ? formatNumber(e.value, 4)
    : `${formatNumber(e.value, 4)} [${formatNumber(e.interval.low, 4)}, ${formatNumber(e.interval.high, 4)}]`;
}

export function formatMaxDiff(x: number | null): string {
  if (x === null) return 'n/a';
  return x === 0 ? '0' : x < 1e-4 ? x.toExponential(1) : formatNumber(x, 4);
}

/** Isolation's accuracy line: `accuracy alone 52.0% vs beside its siblings 55.6%: -3.6 pts [-6.0, -1.2]`. */
export function describeIsolationAccuracy(p: RobustnessProbeSummary): string | null {
  if (p.accuracy === null) return null;
  const a = p.accuracy;
  const pts = (x: number) => formatSigned(x * 100, 1);
  const ci = a.difference.interval;
  return `accuracy against gold asked alone ${formatPercent(a.alone)} vs beside its siblings ${formatPercent(a.beside)}: ${pts(a.difference.value)} pts${ci === null ? '' : ` [${pts(ci.low)}, ${pts(ci.high)}]`}`;
}

/** `0.0% flipped [0.0%, 1.5%], mean distance 0.0000 [0.0000, 0.0000] (deterministic)` */
export function describeNoiseFloor(r: RobustnessSummary): string {
  const f = r.noiseFloor;
  if (f === null) return 'no noise floor (the repeat probes have no data)';
  return `${formatRate(f.flipRate)} flipped, mean distance ${formatDistance(f.meanTv)}${f.deterministic ? ' (repeats never moved: deterministic)' : ''}`;
}

/** One sentence per probe: what its result means for a benchmark score on this server. */
export function meaningOf(p: RobustnessProbeSummary, r: RobustnessSummary): string {
  const share = p.flipRate === null ? 'n/a' : formatPercent(p.flipRate.value);
  if (p.verdict === 'no_data') return `${p.id}: nothing could be compared (${p.reason ?? 'no data'}).`;
  const pass = p.verdict === 'pass';
  switch (p.id) {
    case 'determinism':
      return pass
        ? 'Repeating a request gives the same probabilities: one pass per case measures the model, and two runs can differ only by the server or model.'
        : `Repeats differ by up to ${formatMaxDiff(p.maxAbsDiff)} and flip ${share} of answers: a score carries this noise, and a difference between two runs smaller than it means nothing.`;
    case 'stale-cache':
      return pass
        ? 'An unrelated request in between moves answers no more than a plain repeat: no state leaks from one request to the next.'
        : `An unrelated request in between moves answers more than a plain repeat (${share} flipped): a cache or batch leaks state across requests, so scores depend on request order and --parallel.`;
    case 'question-order':
      return pass
        ? 'Listing the questions in another order changes no answer.'
        : `Question order moves ${share} of answers: keep the dataset's question order when comparing runs.`;
    case 'question-names':
      return pass
        ? 'Renaming the question ids changes no answer: ids only key the answers.'
        : `Question ids move ${share} of answers: the server reads ids as part of the question; benchmark with the dataset's own ids.`;
    case 'isolation':
      return pass
        ? 'Each question gets the same answer alone as beside its siblings.'
        : `Asking one question per request moves ${share} of answers (${describeIsolationAccuracy(p) ?? ''}): score whole cases, one request each, as bench does, never one question per request.`;
    case 'option-order':
      return pass
        ? `Reordering choice options changes no answer${r.noiseFloor !== null && !r.noiseFloor.deterministic ? ' beyond repeat noise' : ''}: choice accuracy does not depend on how options are listed.`
        : `Option order moves ${share} of choice answers: compare choice accuracy with care, and never across datasets that list options differently.`;
    default:
      return p.id satisfies never;
  }
}
