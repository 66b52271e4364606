/**
 * The store's typed errors, whatever its adapter: each names the store, says what happened
 * to it and what to do, so the CLI can show the message as it is (never a driver's message
 * alone).
 */
import { given } from '../core/given.js';
import { DecidekitError } from '../core/errors.js';
import { benchOnStoreCommand, runsCheckCommand } from '../core/command-hints.js';
import { optionMention as option, words, type MessageWords } from '../core/message-words.js';

/**
 * A write did not reach the store (locked by another process past the busy timeout, disk
 * full, read-only file). What was saved before stays saved: a benchmark ends as interrupted
 * and can be resumed.
 */
export class StoreWriteError extends DecidekitError {
  override readonly name = 'StoreWriteError';
  readonly path: string;
  readonly runId: string | null;
  /** What kept the write from the store, without the store's name. */
  readonly detail: string;
  constructor(path: string, runId: string | null, detail: string, cause: unknown) {
    super(
      'store_write_failed',
      `cannot save to run store ${path}${runId === null ? '' : ` (run ${runId})`}: ${detail}`,
      { context: { path, ...(runId === null ? {} : { runId }) }, cause },
    );
    this.path = path;
    this.runId = runId;
    this.detail = detail;
  }
}

/** The store file is damaged: not a database, a missing table, a row that breaks its rules. */
export class StoreDamagedError extends DecidekitError {
  override readonly name = 'StoreDamagedError';
  readonly path: string;
  /** What is damaged, without the store's name and the hint. */
  readonly detail: string;
  constructor(path: string, detail: string, options: { runId?: string; cause?: unknown } = {}) {
    super(
      'store_damaged',
      words`run store ${path} is damaged: ${detail} (check it with: ${runsCheckCommand(path)}; a copy made before the damage, or a new ${option('storePath')}, gets you going again)`,
      {
        context: { path, ...given({ runId: options.runId }) },
        cause: options.cause,
      },
    );
    this.path = path;
    this.detail = detail;
  }
}

/** A store opened read-only that an older decidekit wrote: reading it needs a migration (a write). */
export class StoreNeedsUpgradeError extends DecidekitError {
  override readonly name = 'StoreNeedsUpgradeError';
  constructor(path: string, version: number, current: number) {
    super(
      'store_needs_upgrade',
      `cannot read run store ${path} read-only: it has schema version ${version}, this decidekit reads version ${current} (make the file and its folder writable and run any bench on it once to upgrade it, e.g. ${benchOnStoreCommand(path)}; the file was not changed)`,
      { context: { path, version, current } },
    );
  }
}

/** Thrown when no stored run (audit, probe) matches an id or prefix. */
export class UnknownRunError extends DecidekitError {
  override readonly name = 'UnknownRunError';
  constructor(message: string | MessageWords, context: Record<string, unknown>) {
    super('unknown_run', message, { context });
  }
}
