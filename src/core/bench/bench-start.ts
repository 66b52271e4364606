/** What the bench use case says of a run about to send its first request. */
export interface BenchStart {
  readonly toSend: number;
  readonly total: number;
  readonly datasetName: string;
  /** Where the requests go, for people. */
  readonly target: string;
  readonly resumingRunId: string | null;
  readonly filtered: boolean;
}
