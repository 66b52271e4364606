/** The store's public surface: the port, opening a store, its errors and helpers. */
export type {
  CaseWriter,
  ClaimHolder,
  Store,
  StoreAudits,
  StoreCases,
  StoreClaims,
  StoreProbes,
  StoreRuns,
} from './store.js';
export type {
  FinishRunInput,
  RunCheck,
  RunHeadline,
  SaveProgress,
  StoreCheck,
  StoredRunHead,
  StoredRunInfo,
} from './stored-run.js';
export type { AuditHead } from './stored-audit.js';
export type { ProbeHead } from './stored-probe.js';
export type { AskedBy, RecordKind } from './record-kind.js';
export { openStore, type OpenStoreOptions } from './open-store-with-postgres.js';
export { StoreDamagedError, StoreNeedsUpgradeError, StoreWriteError, UnknownRunError } from './store-errors.js';
export { defaultStorePath } from './default-store-path.js';
export { fingerprintOf, fingerprintInput, FINGERPRINT_HEX_LENGTH } from './fingerprint.js';
export { checkResumable, type ResumeCheck } from './resume-check.js';
export { summarizeRun } from './run-summary.js';
export { canonicalJson } from '../core/canonical-json.js';
export { SCHEMA_VERSION } from './sqlite/schema.js';
