/**
 * A benchmark run's numbers gathered as its cases finish, one call a case: the summary
 * (`BenchAccumulator`), the report lists (`ListingsAccumulator`) and the per-case sample the
 * intervals are drawn from (`addCaseToSample`). What more than one of them needs of a
 * decision (its question key, its log loss) is worked out once (`caseFactsOf`), and the
 * answered requests' latencies are kept once, by the summary (the listings read them there).
 */
import type { CalibrationOptions } from '../calibration.js';
import { CaseSampleBuilder, type CaseSample } from '../stats/case-sample.js';
import { caseFactsOf, QuestionKeys } from './case-facts.js';
import type { CaseResult } from '../typed-decisions/case-result.js';
import { ListingsAccumulator, type RunListings } from './run-listings.js';
import { addCaseToSample } from './run-statistics.js';
import { BenchAccumulator, type BenchSummary, type SummarizeOptions } from './summary.js';

/** What a run's cases add up to. */
export interface RunTotals {
  readonly summary: BenchSummary;
  readonly listings: RunListings;
  /** The per-case numbers the intervals and the ECE noise floor need (`statisticsOfSample`). */
  readonly sample: CaseSample;
}

export class RunAccumulator {
  readonly #summary: BenchAccumulator;
  readonly #listings: ListingsAccumulator;
  readonly #sample: CaseSampleBuilder;
  readonly #keys = new QuestionKeys();

  /**
   * `calibration`: the ECE convention (default ten equal-width bins, pooled); `expected`:
   * the run's cases and decisions, when known (the sample's columns are made that long).
   */
  constructor(calibration?: CalibrationOptions, expected?: { readonly cases: number; readonly decisions: number }) {
    this.#summary = new BenchAccumulator(calibration);
    this.#sample = new CaseSampleBuilder(expected);
    this.#listings = new ListingsAccumulator({ latenciesMs: () => this.#summary.latenciesMs });
  }

  /** Cases added so far. */
  get cases(): number {
    return this.#summary.cases;
  }

  /** Adds a finished case; `position` is its place in the run (its index in the run's case ids). */
  add(c: CaseResult, position: number): void {
    const facts = caseFactsOf(c, this.#keys);
    this.#summary.add(c, facts);
    this.#listings.add(c, position, facts);
    addCaseToSample(this.#sample, c, facts);
  }

  /** The summary alone (a run that stopped early reports nothing else). */
  summarize(options?: SummarizeOptions): BenchSummary {
    return this.#summary.summarize(options);
  }

  /** The summary, the listings and the sample of the cases added so far. */
  finish(options?: SummarizeOptions): RunTotals {
    return { summary: this.summarize(options), listings: this.#listings.listings(), sample: this.#sample.build() };
  }
}
