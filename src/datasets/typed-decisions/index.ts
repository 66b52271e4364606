/** Typed Decisions datasets: loading, provenance, manifests and the fetcher. */
export {
  defaultCacheDir,
  fetchCommand,
  loadBenchDataset,
  questionSetOf,
  sampleDir,
  typedDecisionsCacheDir,
  verifyBenchDataset,
  DEFAULT_SPLIT,
} from './load-bench-dataset.js';
export { datasetValueOf, parseDatasetSource, NAMED_DATASETS } from './dataset-source.js';
export type { NamedDataset } from './dataset-source.js';
export type { DatasetSource, LoadedBenchDataset, LoadOptions, VerifiedDataset } from './load-bench-dataset.js';
export { toWireQuestions } from '../../core/question-rules.js';
export { DatasetFetchError, DatasetIntegrityError } from './dataset-errors.js';
export type { DatasetManifest, ManifestFile } from './manifest.js';
export {
  PINNED_PARQUET_SHA256,
  PINNED_REVISION,
  SAMPLE_ATTRIBUTION,
  SAMPLE_ID,
  TYPED_DECISIONS_ID,
  TYPED_DECISIONS_LICENSE,
  TYPED_DECISIONS_URL,
  typedDecisionsInfo,
} from './provenance.js';
export { fetchTypedDecisions } from './fetch-typed-decisions.js';
export type { FetchProgress, FetchTypedDecisionsOptions, FetchTypedDecisionsResult } from './fetch-typed-decisions.js';
export { summarizeCases } from './case-summary.js';
export type { CaseSummary } from './case-summary.js';
