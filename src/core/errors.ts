import { spellForLibrary, type CallOption, type MessageWords } from './message-words.js';

/**
 * Every machine-readable error code decidekit raises, so a `code ===` check anywhere is
 * checked by the compiler. Grouped by where the error starts.
 */
export type ErrorCode =
  // input files and the command line
  | 'invalid_input'
  | 'usage'
  | 'invalid_option'
  | 'file_unreadable'
  | 'write_failed'
  // benchmark datasets
  | 'dataset_missing'
  | 'dataset_integrity'
  | 'invalid_manifest'
  | 'dataset_fetch'
  | 'invalid_revision'
  | 'invalid_sha256'
  | 'split_mismatch'
  | 'inconsistent_questions'
  // the System One client
  | 'invalid_base_url'
  | 'unsupported_endpoint'
  | 'request_rejected'
  | 'auth'
  | 'http'
  | 'rate_limited'
  | 'timeout'
  | 'malformed_response'
  | 'response_too_large'
  | 'transport'
  | 'unreachable'
  | 'redirect'
  | 'aborted'
  // the reference server
  | 'unknown_model'
  | 'cannot_listen'
  // the run store and resuming
  | 'store_unreadable'
  | 'store_missing'
  | 'store_too_new'
  | 'store_foreign'
  | 'store_corrupt'
  | 'store_write_failed'
  | 'store_damaged'
  | 'store_needs_upgrade'
  | 'store_unreachable'
  | 'store_refused'
  | 'store_no_database'
  | 'run_busy'
  // distributed runs: the shard queue and its workers
  | 'shard_queue'
  | 'shard_stopped'
  // exports
  | 'not_leaderboard_run'
  // the live monitor
  | 'live_first_contact'
  | 'live_no_cases'
  | 'record_write_failed'
  | 'terminal_failed'
  | 'unknown_run'
  | 'ambiguous_run'
  | 'invalid_run'
  | 'not_resumable'
  // comparing runs and tuning thresholds
  | 'not_comparable'
  | 'no_candidates'
  | 'one_class'
  | 'invalid_folds'
  // calibration maps
  | 'too_few_cases'
  | 'calibration_map';

/**
 * The base of decidekit's error hierarchy. Messages read "what failed: where (hint)".
 * A failed case is data (see `Failure`), not an exception; errors are for whole operations.
 */
export class DecidekitError extends Error {
  override readonly name: string = 'DecidekitError';
  /** Stable machine-readable code, e.g. `invalid_input`, `unsupported_endpoint`. */
  readonly code: ErrorCode;
  /** Secret-free context fields (file, line, case, url without credentials, ...). */
  readonly context: Readonly<Record<string, unknown>>;
  /** The message as words, so that the CLI can spell the options it names as flags. */
  readonly words: MessageWords;

  constructor(
    code: ErrorCode,
    message: string | MessageWords,
    options: { context?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    const text = typeof message === 'string' ? message : spellForLibrary(message);
    super(text, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.context = options.context ?? {};
    this.words = typeof message === 'string' ? [message] : message;
  }
}

/** One problem found in an input file. */
export interface InputProblem {
  readonly file: string;
  /** 1-based line number (a row number when `unit` is `row`); null for whole-file problems. */
  readonly line: number | null;
  /** `row` for a Parquet file, whose problems name rows instead of lines. */
  readonly unit?: 'row';
  readonly caseId?: string;
  readonly field?: string;
  readonly message: string;
}

/** "results.jsonl:7 case ch-1: probabilities sum to 1.30, expected 1" ("results.parquet row 7 case ch-1: ..."). */
export function formatProblem(p: InputProblem): string {
  const where = p.line === null ? p.file : p.unit === 'row' ? `${p.file} row ${p.line}` : `${p.file}:${p.line}`;
  const who = p.caseId === undefined ? '' : ` case ${p.caseId}`;
  return `${where}${who}: ${p.message}`;
}

/** Invalid input files (exit 1): carries every problem found, up to a cap. */
export class InvalidInputError extends DecidekitError {
  override readonly name = 'InvalidInputError';
  readonly problems: readonly InputProblem[];
  /** Problems beyond the cap that were counted but not kept. */
  readonly omitted: number;

  constructor(problems: readonly InputProblem[], omitted = 0) {
    const first = problems[0];
    const head = first ? formatProblem(first) : 'invalid input';
    const more = problems.length + omitted - 1;
    super('invalid_input', more > 0 ? `${head} (and ${more} more problem${more === 1 ? '' : 's'})` : head, {
      context: { problems: problems.length + omitted },
    });
    this.problems = problems;
    this.omitted = omitted;
  }
}

/**
 * A bad option of a library call: its message names the option as the call spells it
 * (`outDir /tmp/x: is a file`); the CLI names its flag instead and exits 2.
 */
export class OptionError extends DecidekitError {
  override readonly name = 'OptionError';
  /** The option at fault. */
  readonly option: CallOption;

  constructor(option: CallOption, message: MessageWords) {
    super('invalid_option', message, { context: { option } });
    this.option = option;
  }
}

/** Wrong command-line use (exit 2). */
export class UsageError extends DecidekitError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}
