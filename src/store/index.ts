/** The run store's public surface: the interface, the SQLite implementation and helpers. */
export type {
  FinishRunInput,
  RunCheck,
  RunHeadline,
  RunStore,
  SaveProgress,
  StoreCheck,
  StoredRunHead,
} from './run-store.js';
export { StoreDamagedError, StoreNeedsUpgradeError, StoreWriteError } from './store-errors.js';
export { openRunStore, storedCases, UnknownRunError, type OpenRunStoreOptions } from './sqlite-run-store.js';
export { defaultStorePath } from './default-store-path.js';
export { fingerprintOf, fingerprintInput, FINGERPRINT_HEX_LENGTH } from './fingerprint.js';
export { checkResumable, type ResumeCheck } from './resume-check.js';
export { summarizeRun } from './run-summary.js';
export { canonicalJson } from '../core/canonical-json.js';
export { SCHEMA_VERSION } from './store-schema.js';
