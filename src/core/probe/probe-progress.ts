/** What the probe use case says while it runs: what it is about to probe, then each case done. */

export interface ProbeStart {
  /** "the built-in reference server (model heuristic, http://…)" or the endpoint. */
  readonly target: string;
  /** Cases in the sample: `--cases`, or every case when the dataset has fewer. */
  readonly cases: number;
  /** `--cases` as asked. */
  readonly casesAsked: number;
  /** Cases the dataset has. */
  readonly casesInDataset: number;
  /** The dataset, as a report names it ("the synthetic sample"). */
  readonly dataset: string;
  readonly requests: number;
}

/** A case is done (all its requests answered or failed): how many of how many. */
export interface ProbeProgress {
  readonly casesDone: number;
  readonly casesTotal: number;
}
