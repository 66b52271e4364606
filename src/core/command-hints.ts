/**
 * The commands that hints print for a person to paste (`decidekit runs show ID --store S`)
 * and the flag words that reports print beside their numbers ("Intervals were turned off
 * (--no-ci).").
 *
 * This is the one module outside `src/cli` whose lines name command-line flags:
 * everywhere else a message names the option of the call (`storePath`, `outDir`) as words,
 * and `src/cli/option-flags.ts` spells those as flags. `test/flags-below-cli.test.ts` holds
 * every other source line outside `src/cli` to this rule, and checks that each flag named
 * here is one that a command declares.
 */
import { shellWord } from './shell-word.js';
import { isPostgresUrl, shownStoreUrl } from './store-url.js';

/**
 * ` --store S` (quoted for a shell when it must be), or nothing when no store was named. A
 * PostgreSQL URL is repeated without its password: pasted, the hint connects with the password
 * from PGPASSWORD or ~/.pgpass (docs/team-store.md).
 */
function storeFlag(store: string | null | undefined): string {
  if (store === undefined || store === null) return '';
  return ` --store ${shellWord(isPostgresUrl(store) ? shownStoreUrl(store) : store)}`;
}

/** `decidekit bench --resume RUN [--retry-failed] [--store S]`: the command that finishes a run. */
export function benchResumeCommand(
  runId: string,
  options: { readonly store?: string | null | undefined; readonly retryFailed?: boolean } = {},
): string {
  return `decidekit bench --resume ${runId}${options.retryFailed === true ? ' --retry-failed' : ''}${storeFlag(options.store)}`;
}

/**
 * What a resume command adds for credentials that are never stored, with a placeholder for
 * the secret: ` --api-key KEY`, or ` --base-url` with `USER:PASSWORD@` in `baseUrl`.
 */
export function credentialsAgainFlags(sent: 'key' | 'user and password', baseUrl: string): string {
  return sent === 'key' ? ' --api-key KEY' : ` --base-url ${shellWord(baseUrl.replace('://', '://USER:PASSWORD@'))}`;
}

/** What a printed resume command needs given again besides it (never stored), or nothing. */
export function credentialsAgainNote(sent: 'key' | 'user and password' | null | undefined): string {
  if (sent === 'key') return ' (with --api-key or DECIDEKIT_API_KEY again: keys are never stored)';
  if (sent === 'user and password') return ' (with the user and password in --base-url again: they are never stored)';
  return '';
}

/** `decidekit bench --store S`: any bench on a store, e.g. to upgrade it. */
export function benchOnStoreCommand(store: string): string {
  return `decidekit bench${storeFlag(store)}`;
}

/** `decidekit calibrate RUN --by B --out MAP [--store S]`: fits a map on a stored run, for `--calibration`. */
export function calibrateRunCommand(
  runId: string,
  options: { readonly by: string; readonly out: string; readonly store?: string | null | undefined },
): string {
  return `decidekit calibrate ${runId}${storeFlag(options.store)} --by ${options.by} --out ${shellWord(options.out)}`;
}

/** `decidekit runs show ID [--store S]`. */
export function runsShowCommand(id: string, store?: string | null): string {
  return `decidekit runs show ${id}${storeFlag(store)}`;
}

/** The hint that shows a stored record: the command, and how to get the whole record. */
export function showRecordHint(id: string, store?: string | null): string {
  return `Show it with: ${runsShowCommand(id, store)} (add --json for the whole record)`;
}

/** `decidekit runs list [--store S]`. */
export function runsListCommand(store?: string | null): string {
  return `decidekit runs list${storeFlag(store)}`;
}

/** `decidekit runs delete ID --yes [--store S]`: deleting without being asked. */
export function runsDeleteCommand(id: string, store?: string | null): string {
  return `decidekit runs delete ${shellWord(id)} --yes${storeFlag(store)}`;
}

/** `decidekit runs check --store S`. */
export function runsCheckCommand(store: string): string {
  return `decidekit runs check${storeFlag(store)}`;
}

/** `decidekit report RUN --format markdown --out FILE [--store S]`: a saved run's report written again. */
export function markdownReportCommand(runId: string, store?: string | null): string {
  return `decidekit report ${runId} --format markdown --out FILE${storeFlag(store)}`;
}

/** `decidekit dataset fetch typed-decisions [--revision R]`. */
export function datasetFetchCommand(revision?: string): string {
  return `decidekit dataset fetch typed-decisions${revision === undefined ? '' : ` --revision ${shellWord(revision)}`}`;
}

/**
 * The name a Typed Decisions file downloaded by hand has, which hints put where its path goes:
 * a real name pastes into a shell as it is (a `<path>` placeholder would be read as a redirect)
 * and works from the folder that holds the file.
 */
const DOWNLOADED_FILE = 'test-00000-of-00001.parquet';

/**
 * How to give bench a Typed Decisions file by path, as the hint of a dataset that is not in
 * the cache says it (that message is also what `dataset list` and `dataset verify` print).
 */
export const DATASET_FILE_FLAG = `--dataset ${DOWNLOADED_FILE}`;

/** `decidekit bench --dataset test-00000-of-00001.parquet`: bench on a Typed Decisions file downloaded by hand. */
export function benchOnDownloadedFileCommand(): string {
  return `decidekit bench --dataset ${DOWNLOADED_FILE}`;
}

/** The flag that checks a downloaded dataset's sha256, for a revision with no pinned hash. */
export const SHA256_FLAG = '--sha256';

/** The flag that turns intervals off, as reports name it where intervals would be. */
export const NO_CI_FLAG = '--no-ci';

/** The sentence a report prints where intervals would be, when they were turned off. */
export const INTERVALS_OFF = `Intervals were turned off (${NO_CI_FLAG}).`;

/** The flag that prices a benchmark's tokens, as reports name it where a cost would be. */
export const PRICE_FLAG = '--price-per-mtok';

/** The flag that prints a report as JSON, which lists what the text cuts short. */
export const JSON_FLAG = '--json';

/** The flag and value that pool the ECE, when the per-question one is degenerate. */
export const POOLED_ECE_FLAG = '--ece-average pooled';

/** The flag that sets the requests in flight. */
export const PARALLEL_FLAG = '--parallel';

/** The flag that names a run store. */
export const STORE_FLAG = '--store';

/** `--cases N`: how many cases a probe was asked for. */
export function probeCasesFlag(cases: number): string {
  return `--cases ${cases}`;
}

/** `decidekit audit --resume ID [--store S]`: the command that completes an audit. */
export function auditResumeCommand(auditId: string, store?: string | null): string {
  return `decidekit audit ${resumeFlag(auditId)}${storeFlag(store)}`;
}

/** `--resume ID`: how an interrupted audit is resumed. */
export function resumeFlag(id: string): string {
  return `--resume ${id}`;
}

/**
 * The flag that gives `decidekit serve` its prior file, as the reference server's `prior`
 * model names it when it has none.
 */
export const PRIOR_FILE_FLAG = '--prior-file';

/**
 * The flag that turns on the reference server's `/metrics`, as its 501 answer names it (in
 * llama.cpp's words, which also name its flag `--metrics`).
 */
export const METRICS_FLAG = '--metrics';

/** `decidekit suite FILE --resume [--store S]`: the command that takes an interrupted suite up again. */
export function suiteResumeCommand(file: string, store?: string | null): string {
  return `decidekit suite ${shellWord(file)} --resume${storeFlag(store)}`;
}

/** `decidekit runs compare A B --force [--store S]`: two runs compared whatever they measured. */
export function runsCompareForceCommand(a: string, b: string, store?: string | null): string {
  return `decidekit runs compare ${a} ${b} --force${storeFlag(store)}`;
}

/** `decidekit worker --store URL`: what a worker machine runs to send a distributed run's shards. */
export function workerCommand(store: string): string {
  return `decidekit worker --store ${shellWord(store)}`;
}
