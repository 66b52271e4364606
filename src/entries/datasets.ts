/**
 * `decidekit/datasets`: the loaders, each checking every row and naming the file, line and
 * field of what is wrong. Typed Decisions (the bundled sample, a fetched copy, a file), an
 * offline dataset and its results files, an action spec, audit checks and transcripts.
 */
export {
  defaultCacheDir,
  fetchTypedDecisions,
  loadBenchDataset,
  questionSetOf,
  verifyBenchDataset,
  DatasetFetchError,
  DatasetIntegrityError,
  type DatasetSource,
  type FetchTypedDecisionsOptions,
  type FetchTypedDecisionsResult,
  type LoadedBenchDataset,
  type VerifiedDataset,
} from '../datasets/typed-decisions/index.js';
export type { DatasetInfo } from '../core/typed-decisions/dataset-info.js';
export { loadOfflineDataset, type OfflineDataset } from '../datasets/offline/dataset.js';
export { loadResults, readResults, scoreResults } from '../datasets/offline/results.js';
export { loadActionSpec, parseActionSpec } from '../datasets/offline/action-spec.js';
export { loadChecks } from '../datasets/audit/load-checks.js';
export { loadTranscripts, refuseMissingLabels } from '../datasets/audit/load-transcripts.js';
export type { AuditCheck, CheckSet, EvidenceScope } from '../core/audit/check.js';
export type { Transcript, TranscriptMessage } from '../core/audit/transcript.js';
