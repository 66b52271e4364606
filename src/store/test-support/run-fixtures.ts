/** Moved to the shared run fixtures; kept for importers not yet switched (src/cli tests). */
export * from '../../core/bench/test-support/run-fixtures.js';
