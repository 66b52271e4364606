/**
 * What every probe report shares: the title line, how an estimate with its interval reads,
 * and what each probe's numbers mean for a benchmark score.
 */
import type {
  Estimate,
  ExceededMeasure,
  NoiseFloor,
  RobustnessProbeSummary,
  RobustnessSummary,
} from '../../core/probe/robustness.js';
import type { PassCount, ProbeRun, ProbeTally } from '../../core/probe/run.js';
import type { ProbeStart } from '../../core/probe/probe-progress.js';
import { formatCount, formatNumber, formatPercent, formatSigned, plural } from '../format.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import { PARALLEL_FLAG, probeCasesFlag } from '../../core/command-hints.js';

/**
 * Checks or probes as every probe report and `runs list` count them: passed of those that
 * ran, `18/20` (a check with nothing to judge did not run and is counted apart).
 */
export function passedOfRan(c: PassCount): string {
  return `${c.passed}/${c.ran}`;
}

/** `2 not run` when some checks or probes did not run; null when all ran. */
export function describeNotRun(t: ProbeTally): string | null {
  return t.notRun > 0 ? `${formatCount(t.notRun)} not run` : null;
}

/** `18/20 checks pass`, with `, 2 not run` when some did not run. */
export function describePassed(t: ProbeTally, noun: 'checks' | 'probes'): string {
  const notRun = describeNotRun(t);
  return `${passedOfRan(t)} ${noun} pass${notRun === null ? '' : `, ${notRun}`}`;
}

export function describeTarget(run: ProbeRun): string {
  const e = run.config.endpoint;
  return e.scheme === 'embedded'
    ? `${run.config.model ?? 'default model'} (built-in reference server)`
    : `${run.config.model ?? 'server default model'} at ${formatEndpoint(e)}`;
}

export function describeSample(run: ProbeRun): string {
  const c = run.config;
  const name = c.dataset.synthetic ? 'the synthetic sample' : c.dataset.id;
  // A probe asked for more cases than the dataset has probes all of them, and says so.
  const all = c.casesAsked > c.caseIds.length ? ` (all it has; ${probeCasesFlag(c.casesAsked)} asked)` : '';
  return `${plural(c.caseIds.length, 'case')} of ${name}${all} (seed ${c.seed}) · ${plural(run.requests, 'request', 'requests', formatCount)} in ${(run.durationMs / 1000).toFixed(1)} s`;
}

/**
 * The line a probe starts with: `probing URL: 50 cases, about 709 requests, one at a time`;
 * when `--cases` asks for more than the dataset has, it says the whole dataset is probed.
 */
export function describeProbeStart(s: ProbeStart): string {
  const cases =
    s.casesAsked > s.casesInDataset
      ? `${plural(s.cases, 'case')} (all of ${s.dataset}: ${probeCasesFlag(s.casesAsked)} asks for more than it has)`
      : plural(s.cases, 'case');
  return `probing ${s.target}: ${cases}, about ${plural(s.requests, 'request')}, one at a time`;
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

/** How the noise floor line is labelled: what it is, and that each probe has its own. */
export const NOISE_FLOOR_LABEL = 'noise floor (the larger of the two repeat probes)';

/**
 * The floor's two measures, each with the repeat probe it came from:
 * `stale-cache: 0.0% [0.0%, 1.5%] flipped, mean distance 0.0404 [0.0360, 0.0448]`, or
 * `0.0% … flipped (determinism), mean distance 0.0404 … (stale-cache)` when they differ.
 */
export function describeFloor(f: NoiseFloor): string {
  const flips = `${formatRate(f.flipRate)} flipped`;
  const distance = `mean distance ${formatDistance(f.meanTv)}`;
  const text =
    f.flipRateFrom === undefined || f.meanTvFrom === undefined
      ? `${flips}, ${distance}`
      : f.flipRateFrom === f.meanTvFrom
        ? `${f.flipRateFrom}: ${flips}, ${distance}`
        : `${flips} (${f.flipRateFrom}), ${distance} (${f.meanTvFrom})`;
  return `${text}${f.deterministic ? ' (repeats never moved: deterministic)' : ''}`;
}

/** The overall floor, or why there is none. */
export function describeNoiseFloor(r: RobustnessSummary): string {
  return r.noiseFloor === null ? 'none (the repeat probes have no data)' : describeFloor(r.noiseFloor);
}

/** What moved beyond the floor; probes kept before this was recorded failed on flips when any flipped. */
function exceededOf(p: RobustnessProbeSummary): readonly ExceededMeasure[] {
  return p.exceeded ?? (p.flips > 0 ? ['flips'] : ['distance']);
}

/**
 * How far a failing probe moved answers, in the measure it failed on: `12.0% of choice
 * answers`, or `choice answers by a mean distance of 0.0717, beyond the 0.0552 a
 * stale-cache repeat of the same questions moves` when it failed on distance alone.
 */
function movedBy(p: RobustnessProbeSummary, whose: string): string {
  if (exceededOf(p).includes('flips') && p.flipRate !== null)
    return `${formatPercent(p.flipRate.value)} of ${whose}answers`;
  const tv = p.meanTv === null ? 'n/a' : formatNumber(p.meanTv.value, 4);
  const floor = p.floor ?? null;
  const repeat =
    floor === null
      ? ''
      : floor.deterministic
        ? ', where a plain repeat of the same questions moves none'
        : `, beyond the ${formatNumber(floor.meanTv.value, 4)} a ${floor.meanTvFrom ?? 'plain'} repeat of the same questions moves`;
  return `${whose}answers by a mean distance of ${tv}${repeat}`;
}

/** One sentence per probe: what its result means for a benchmark score on this server. */
export function meaningOf(p: RobustnessProbeSummary, r: RobustnessSummary): string {
  if (p.verdict === 'no_data') return `${p.id}: nothing could be compared (${p.reason ?? 'no data'}).`;
  const pass = p.verdict === 'pass';
  // On a server whose repeats move, a passing probe moved answers no more than a repeat did.
  const noisy = (p.floor ?? r.noiseFloor)?.deterministic === false;
  const unmoved = noisy ? 'moves answers no more than a plain repeat does' : 'changes no answer';
  switch (p.id) {
    case 'determinism': {
      const flipped =
        p.flips > 0 && p.flipRate !== null ? ` and flip ${formatPercent(p.flipRate.value)} of answers` : '';
      return pass
        ? 'Repeating a request gives the same probabilities: one pass per case measures the model, and two runs can differ only by the server or model.'
        : `Repeats differ by up to ${formatMaxDiff(p.maxAbsDiff)}${flipped}: a score carries this noise, and a difference between two runs smaller than it means nothing.`;
    }
    case 'stale-cache':
      return pass
        ? 'An unrelated request in between moves answers no more than a plain repeat: no state leaks from one request to the next.'
        : `An unrelated request in between moves ${movedBy(p, '')}${exceededOf(p).includes('flips') ? ', more than a plain repeat' : ''}: a cache or batch leaks state across requests, so scores depend on request order and ${PARALLEL_FLAG}.`;
    case 'question-order':
      return pass
        ? `Listing the questions in another order ${unmoved}.`
        : `Question order moves ${movedBy(p, '')}: keep the dataset's question order when comparing runs.`;
    case 'question-names':
      return pass
        ? `Renaming the question ids ${unmoved}: ids only key the answers.`
        : `Question ids move ${movedBy(p, '')}: the server reads ids as part of the question; benchmark with the dataset's own ids.`;
    case 'isolation': {
      const acc = describeIsolationAccuracy(p);
      return pass
        ? noisy
          ? 'Each question asked alone moves no more than a plain repeat does from its answer beside its siblings.'
          : 'Each question gets the same answer alone as beside its siblings.'
        : `Asking one question per request moves ${movedBy(p, '')}${acc === null ? '' : ` (${acc})`}: score whole cases, one request each, as bench does, never one question per request.`;
    }
    case 'option-order':
      return pass
        ? `Reordering choice options ${unmoved}: choice accuracy does not depend on how options are listed.`
        : `Option order moves ${movedBy(p, 'choice ')}: compare choice accuracy with care, and never across datasets that list options differently.`;
    default:
      return p.id satisfies never;
  }
}
