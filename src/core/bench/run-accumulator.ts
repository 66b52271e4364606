/**
 * A benchmark run's numbers gathered as its cases finish, one call a case: the summary
 * (`BenchAccumulator`), the report lists (`DigestAccumulator`) and the per-case sample the
 * intervals are drawn from (`addCaseToSample`). What more than one of them needs of a
 * decision (its question key, its log loss) is worked out once (`caseFactsOf`), and the
 * answered requests' latencies are kept once, by the summary (the digest reads them there).
 */
import type { CalibrationOptions } from '../calibration.js';
import { CaseSampleBuilder, type CaseSample } from '../stats/case-sample.js';
import { caseFactsOf } from './case-facts.js';
import type { CaseResult } from '../typed-decisions/case-result.js';
import { DigestAccumulator, type RunDigest } from './run-digest.js';
import { addCaseToSample } from './run-statistics.js';
import { BenchAccumulator, type BenchSummary, type SummarizeOptions } from './summary.js';

/** What a run's cases add up to. */
export interface RunTotals {
  readonly summary: BenchSummary;
  readonly digest: RunDigest;
  /** The per-case numbers the intervals and the ECE noise floor need (`statisticsOfSample`). */
  readonly sample: CaseSample;
}

export class RunAccumulator {
  readonly #summary: BenchAccumulator;
  readonly #digest: DigestAccumulator;
  readonly #sample: CaseSampleBuilder;

  /**
   * `calibration`: the ECE convention (default ten equal-width bins, pooled); `expected`:
   * the run's cases and decisions, when known (the sample's columns are made that long).
   */
  constructor(calibration?: CalibrationOptions, expected?: { readonly cases: number; readonly decisions: number }) {
    this.#summary = new BenchAccumulator(calibration);
    this.#sample = new CaseSampleBuilder(expected);
    this.#digest = new DigestAccumulator({ latenciesMs: () => this.#summary.latenciesMs });
  }

  /** Cases added so far. */
  get cases(): number {
    return this.#summary.cases;
  }

  /** Adds a finished case; `position` is its place in the run (its index in the run's case ids). */
  add(c: CaseResult, position: number): void {
    const facts = caseFactsOf(c);
    this.#summary.add(c, facts);
    this.#digest.add(c, position, facts);
    addCaseToSample(this.#sample, c, facts);
  }

  /** The summary alone (a run that stopped early reports nothing else). */
  summarize(options?: SummarizeOptions): BenchSummary {
    return this.#summary.summarize(options);
  }

  /** The summary, the digest and the sample of the cases added so far. */
  finish(options?: SummarizeOptions): RunTotals {
    return { summary: this.summarize(options), digest: this.#digest.digest(), sample: this.#sample.build() };
  }
}
