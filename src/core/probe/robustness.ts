/**
 * The robustness probes of `decidekit probe`: the same question asked two ways, and how far
 * the answer moved. Each probe is a set of decision pairs (the case's baseline answer and
 * the variant's, aligned by answer name); the numbers are the share of pairs whose picked
 * answer changed (a flip, with a Wilson 95% interval) and the mean total-variation distance
 * (with a 95% case bootstrap interval: decisions of one case are not independent), next to
 * the noise floor: what a plain repeat of the same request moves.
 */
import { argmaxFirst } from '../decision-score.js';
import { ExactSum } from '../exact-sum.js';
import { countFlips, topAnswerOf } from '../order-flips.js';
import type { QuestionType } from '../question.js';
import type { Interval } from '../stats/bootstrap.js';
import { caseMeanInterval } from '../stats/case-mean.js';
import { withConventions, type Conventions } from '../stats/conventions.js';
import { wilsonInterval } from '../stats/wilson.js';

export const ROBUSTNESS_PROBES = {
  determinism: 'the same request twice in a row gives the same probabilities',
  'stale-cache': 'the same request again after an unrelated one moves no more than a plain repeat',
  'question-order': 'the questions listed last to first change no answer',
  'question-names': 'the questions under other ids change no answer',
  isolation: 'each question asked alone gets the answer it gets beside its siblings',
  'option-order': 'choice options reversed or shuffled change no answer',
} as const;

export type RobustnessProbeId = keyof typeof ROBUSTNESS_PROBES;
export const ROBUSTNESS_PROBE_IDS = Object.keys(ROBUSTNESS_PROBES) as RobustnessProbeId[];

/** Repeats closer than this (largest absolute difference) count as the same probabilities. */
export const DETERMINISM_TOLERANCE = 1e-6;
/** Mean total-variation distance above the noise floor that still counts as no movement (rounding). */
export const TV_SLACK = 0.001;
/** Pairs shown as the examples that moved most. */
export const MOVED_EXAMPLES = 3;

/** One question of one case, answered by the baseline request and by a variant. */
export interface DecisionPair {
  readonly caseId: string;
  readonly questionId: string;
  readonly type: QuestionType;
  /** The question's answers in the case's own order. */
  readonly answers: readonly string[];
  /** Index of the gold label in `answers`. */
  readonly goldIndex: number;
  /** What the variant changed ("options reversed", "urgency alone", ...). */
  readonly variant: string;
  /** Both aligned with `answers`. */
  readonly before: readonly number[];
  readonly after: readonly number[];
}

/** What a probe could not compare: variant requests that failed, answers that could not be read. */
export interface ProbeLoss {
  readonly requests: number;
  readonly decisions: number;
}

export interface MovedPair {
  readonly caseId: string;
  readonly questionId: string;
  readonly variant: string;
  readonly answers: readonly string[];
  readonly before: readonly number[];
  readonly after: readonly number[];
  readonly topBefore: string;
  readonly topAfter: string;
  readonly tv: number;
}

export interface Estimate {
  readonly value: number;
  /** 95% interval; null when intervals are off. */
  readonly interval: Interval | null;
}

/** The seed and resamples of the intervals. */
export interface IntervalSettings {
  readonly seed: number;
  /** Bootstrap resamples (0: no bootstrap intervals). */
  readonly resamples: number;
}

function conventionsOf(settings: IntervalSettings): Conventions {
  return withConventions({ seed: settings.seed, bootstrapResamples: settings.resamples });
}

export type ProbeVerdict = 'pass' | 'fail' | 'no_data';

export interface RobustnessProbeSummary {
  readonly id: RobustnessProbeId;
  readonly rule: string;
  readonly verdict: ProbeVerdict;
  /** Why it failed, in numbers; null when it passed. */
  readonly reason: string | null;
  readonly cases: number;
  readonly pairs: number;
  readonly flips: number;
  /** Flipped pairs / pairs (tie-aware: a tie broken differently is no flip), Wilson interval. */
  readonly flipRate: Estimate | null;
  /** Mean total-variation distance, ½ Σ |p − q|, case bootstrap interval. */
  readonly meanTv: Estimate | null;
  /** Largest absolute difference of one probability. */
  readonly maxAbsDiff: number | null;
  /** Isolation only: accuracy against gold asked alone, beside the siblings, and alone minus beside. */
  readonly accuracy: {
    readonly beside: number;
    readonly alone: number;
    readonly difference: Estimate;
  } | null;
  readonly lost: ProbeLoss;
  readonly moved: readonly MovedPair[];
  /**
   * The floor this probe was judged against: the repeats' answers to the same questions,
   * each counted as often as this probe compares it. Null for `determinism` and when no
   * floor could be measured; absent in probes kept before it was recorded.
   */
  readonly floor?: NoiseFloor | null;
  /** What moved beyond the floor (empty unless the verdict is fail); absent in older probes. */
  readonly exceeded?: readonly ExceededMeasure[];
}

/** The two probes that repeat a request unchanged: their movement is noise to every other probe. */
export type RepeatProbeId = 'determinism' | 'stale-cache';

/**
 * What a plain repeat moves: the yardstick of every other probe. Of the repeat probes that
 * apply, the one that moves more, flips and distance taken separately (so each says which
 * repeat set it). The `…From` fields are absent in probes kept before they were recorded.
 */
export interface NoiseFloor {
  readonly flipRate: Estimate;
  readonly flipRateFrom?: RepeatProbeId;
  readonly meanTv: Estimate;
  readonly meanTvFrom?: RepeatProbeId;
  /** No repeat moved any probability at all. */
  readonly deterministic: boolean;
}

/** The measure a probe moved beyond its noise floor. */
export type ExceededMeasure = 'flips' | 'distance';

export interface RobustnessSummary {
  readonly probes: readonly RobustnessProbeSummary[];
  /**
   * The larger of the two repeat probes' movements over every question they compared. Each
   * probe is judged against its own `floor`: the same repeats on its own questions.
   */
  readonly noiseFloor: NoiseFloor | null;
  readonly passed: number;
  readonly failed: number;
}

export function totalVariation(p: readonly number[], q: readonly number[]): number {
  const sum = new ExactSum();
  for (let i = 0; i < Math.max(p.length, q.length); i++) sum.add(Math.abs((p[i] ?? 0) - (q[i] ?? 0)));
  return sum.value() / 2;
}

export function maxAbsDifference(p: readonly number[], q: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < Math.max(p.length, q.length); i++) m = Math.max(m, Math.abs((p[i] ?? 0) - (q[i] ?? 0)));
  return m;
}

interface Measured {
  readonly cases: number;
  readonly flips: number;
  readonly flipRate: Estimate | null;
  readonly meanTv: Estimate | null;
  readonly maxAbsDiff: number | null;
}

function byCase(pairs: readonly DecisionPair[], value: (p: DecisionPair) => number) {
  const units = new Map<string, { id: string; sum: number; count: number }>();
  for (const p of pairs) {
    const u = units.get(p.caseId) ?? { id: p.caseId, sum: 0, count: 0 };
    u.sum += value(p);
    u.count++;
    units.set(p.caseId, u);
  }
  return [...units.values()];
}

function measure(pairs: readonly DecisionPair[], settings: IntervalSettings): Measured {
  if (pairs.length === 0) return { cases: 0, flips: 0, flipRate: null, meanTv: null, maxAbsDiff: null };
  const counted = countFlips(
    pairs.map((p) => ({
      id: p.questionId,
      before: topAnswerOf(p.answers, p.before),
      after: topAnswerOf(p.answers, p.after),
    })),
  );
  const flips = counted.flipped.length;
  const tvUnits = byCase(pairs, (p) => totalVariation(p.before, p.after));
  const tv = new ExactSum();
  for (const u of tvUnits) tv.add(u.sum);
  return {
    cases: tvUnits.length,
    flips,
    flipRate: { value: counted.flipRate!, interval: wilsonInterval(flips, counted.pairs) },
    meanTv: { value: tv.value() / pairs.length, interval: caseMeanInterval(tvUnits, conventionsOf(settings)) },
    maxAbsDiff: pairs.reduce((m, p) => Math.max(m, maxAbsDifference(p.before, p.after)), 0),
  };
}

/** The examples that moved most: flips first, then by largest distance. */
export function mostMoved(pairs: readonly DecisionPair[], n = MOVED_EXAMPLES): MovedPair[] {
  return pairs
    .map((p) => ({
      caseId: p.caseId,
      questionId: p.questionId,
      variant: p.variant,
      answers: p.answers,
      before: p.before,
      after: p.after,
      topBefore: topAnswerOf(p.answers, p.before),
      topAfter: topAnswerOf(p.answers, p.after),
      tv: totalVariation(p.before, p.after),
    }))
    .filter((m) => m.tv > 0 || m.topBefore !== m.topAfter)
    .sort((a, b) => Number(b.topBefore !== b.topAfter) - Number(a.topBefore !== a.topAfter) || b.tv - a.tv)
    .slice(0, n);
}

/**
 * What a probe moved beyond its noise floor, with why in numbers. On a deterministic floor
 * (no repeat moved anything) any flip counts, and a mean distance above `TV_SLACK`; on a
 * noisy one, only an interval wholly above the floor's interval (plus `TV_SLACK` for distance).
 */
function beyondFloor(m: Measured, floor: NoiseFloor): { reason: string | null; exceeded: ExceededMeasure[] } {
  const reasons: string[] = [];
  const exceeded: ExceededMeasure[] = [];
  const flips = `${m.flips} answer${m.flips === 1 ? '' : 's'} flipped`;
  const tv = m.meanTv === null ? '' : `mean distance ${m.meanTv.value.toFixed(4)}`;
  const from = (id: RepeatProbeId | undefined) => `the ${id ?? 'plain'} repeat of the same questions`;
  if (floor.deterministic) {
    if (m.flips > 0) {
      exceeded.push('flips');
      reasons.push(`${flips} on a server whose repeats never move`);
    }
    if (m.meanTv !== null && m.meanTv.value > TV_SLACK) {
      exceeded.push('distance');
      reasons.push(`${tv} on a server whose repeats never move`);
    }
  } else {
    const low = (e: Estimate) => e.interval?.low ?? e.value;
    const high = (e: Estimate) => e.interval?.high ?? e.value;
    if (m.flips > 0 && m.flipRate !== null && low(m.flipRate) > high(floor.flipRate)) {
      exceeded.push('flips');
      reasons.push(
        `${flips} (${(m.flipRate.value * 100).toFixed(1)}%), beyond the ${(floor.flipRate.value * 100).toFixed(1)}% of ${from(floor.flipRateFrom)}`,
      );
    }
    if (m.meanTv !== null && low(m.meanTv) > high(floor.meanTv) + TV_SLACK) {
      exceeded.push('distance');
      reasons.push(`${tv}, beyond the ${floor.meanTv.value.toFixed(4)} of ${from(floor.meanTvFrom)}`);
    }
  }
  return { reason: reasons.length === 0 ? null : reasons.join('; '), exceeded };
}

/**
 * The floor the repeats set on the questions a probe compares: for each of the probe's
 * pairs, the repeat's pair of the same question (so a question the probe compares three
 * times counts three times here too); of the repeats, the larger movement, flips and
 * distance taken separately. Pairs a repeat lost are left out. Null when nothing matched.
 */
export function floorFor(
  pairs: readonly DecisionPair[],
  repeats: Partial<Record<RepeatProbeId, readonly DecisionPair[]>>,
  settings: IntervalSettings,
): NoiseFloor | null {
  const floors: { id: RepeatProbeId; m: Measured }[] = [];
  for (const id of ['determinism', 'stale-cache'] as const) {
    const repeat = repeats[id];
    if (repeat === undefined) continue;
    const byQuestion = new Map(repeat.map((r) => [`${r.caseId}\u0000${r.questionId}`, r]));
    const matched: DecisionPair[] = [];
    for (const p of pairs) {
      const r = byQuestion.get(`${p.caseId}\u0000${p.questionId}`);
      if (r !== undefined) matched.push(r);
    }
    const m = measure(matched, settings);
    if (m.flipRate !== null && m.meanTv !== null) floors.push({ id, m });
  }
  if (floors.length === 0) return null;
  // The noisier repeat (a stale cache is noise to every other probe); ties to determinism.
  const byFlips = floors.reduce((a, b) => (b.m.flipRate!.value > a.m.flipRate!.value ? b : a));
  const byTv = floors.reduce((a, b) => (b.m.meanTv!.value > a.m.meanTv!.value ? b : a));
  return {
    flipRate: byFlips.m.flipRate!,
    flipRateFrom: byFlips.id,
    meanTv: byTv.m.meanTv!,
    meanTvFrom: byTv.id,
    deterministic: floors.every((f) => f.m.flips === 0 && f.m.maxAbsDiff === 0),
  };
}

export interface ProbePairs {
  readonly pairs: readonly DecisionPair[];
  readonly lost: ProbeLoss;
}

/** Every robustness number, from the pairs of each probe that ran. */
export function summarizeRobustness(
  probes: Partial<Record<RobustnessProbeId, ProbePairs>>,
  settings: IntervalSettings,
): RobustnessSummary {
  const measured = new Map<RobustnessProbeId, Measured>();
  for (const id of ROBUSTNESS_PROBE_IDS) {
    const p = probes[id];
    if (p !== undefined) measured.set(id, measure(p.pairs, settings));
  }
  const repeatPairs = (ids: readonly RepeatProbeId[]) => {
    const out: Partial<Record<RepeatProbeId, readonly DecisionPair[]>> = {};
    for (const id of ids) {
      const p = probes[id];
      if (p !== undefined) out[id] = p.pairs;
    }
    return out;
  };
  const allQuestions = [...(probes.determinism?.pairs ?? []), ...(probes['stale-cache']?.pairs ?? [])];
  // The overall floor, shown beside the table: each repeat over every question it compared.
  const noiseFloor =
    probes.determinism === undefined
      ? null
      : floorFor(
          [...new Map(allQuestions.map((p) => [`${p.caseId}\u0000${p.questionId}`, p])).values()],
          repeatPairs(['determinism', 'stale-cache']),
          settings,
        );
  const out: RobustnessProbeSummary[] = [];
  for (const id of ROBUSTNESS_PROBE_IDS) {
    const p = probes[id];
    const m = measured.get(id);
    if (p === undefined || m === undefined) continue;
    let verdict: ProbeVerdict;
    let reason: string | null = null;
    let floor: NoiseFloor | null = null;
    let exceeded: ExceededMeasure[] = [];
    if (p.pairs.length === 0) {
      verdict = 'no_data';
      reason = 'nothing to compare';
    } else if (id === 'determinism') {
      reason =
        m.maxAbsDiff! > DETERMINISM_TOLERANCE
          ? `a repeat differs by up to ${m.maxAbsDiff!.toPrecision(3)} (tolerance ${DETERMINISM_TOLERANCE})`
          : null;
      verdict = reason === null ? 'pass' : 'fail';
    } else {
      // The stale-cache probe is judged against a plain repeat alone; every other probe also
      // against the stale-cache repeat, whose movement is noise to it.
      floor = floorFor(
        p.pairs,
        repeatPairs(id === 'stale-cache' ? ['determinism'] : ['determinism', 'stale-cache']),
        settings,
      );
      if (floor === null) {
        verdict = 'no_data';
        reason = 'no noise floor (the determinism probe has no data on these questions)';
      } else {
        ({ reason, exceeded } = beyondFloor(m, floor));
        verdict = reason === null ? 'pass' : 'fail';
      }
    }
    out.push({
      id,
      rule: ROBUSTNESS_PROBES[id],
      verdict,
      reason,
      cases: m.cases,
      pairs: p.pairs.length,
      flips: m.flips,
      flipRate: m.flipRate,
      meanTv: m.meanTv,
      maxAbsDiff: m.maxAbsDiff,
      accuracy: id === 'isolation' && p.pairs.length > 0 ? isolationAccuracy(p.pairs, settings) : null,
      lost: p.lost,
      moved: mostMoved(p.pairs),
      floor,
      exceeded,
    });
  }
  return {
    probes: out,
    noiseFloor,
    passed: out.filter((p) => p.verdict === 'pass').length,
    failed: out.filter((p) => p.verdict === 'fail').length,
  };
}

/** Accuracy against gold (the benchmark's rule: ties to the answer listed first) beside siblings and alone. */
function isolationAccuracy(pairs: readonly DecisionPair[], settings: IntervalSettings) {
  const correct = (d: readonly number[], gold: number) => (argmaxFirst(d) === gold ? 1 : 0);
  let beside = 0;
  let alone = 0;
  for (const p of pairs) {
    beside += correct(p.before, p.goldIndex);
    alone += correct(p.after, p.goldIndex);
  }
  const units = byCase(pairs, (p) => correct(p.after, p.goldIndex) - correct(p.before, p.goldIndex));
  return {
    beside: beside / pairs.length,
    alone: alone / pairs.length,
    difference: { value: (alone - beside) / pairs.length, interval: caseMeanInterval(units, conventionsOf(settings)) },
  };
}
