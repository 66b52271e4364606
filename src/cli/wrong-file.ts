/**
 * A file given to the wrong option (a Typed Decisions dataset as `score --results`, a run
 * store as `--dataset`, a gzip file without its `.gz` name, ...) is a usage error, said once
 * with what the file is and what to run instead, before any line is read.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { sqlString } from '../core/sql-text.js';
import { sniffFile, sniffFileKind, type FileKind } from '../datasets/file-kind.js';
import { shellWord } from '../core/shell-word.js';
import { caseFileFormat } from '../datasets/typed-decisions/read-cases.js';
import type { ReadFile } from '../app/output-file.js';

/** The kinds of file an option reads. */
export type ExpectedFile =
  'typed-decisions' | 'offline-dataset' | 'offline-results' | 'action-spec' | 'audit-checks' | 'audit-transcripts';

/** One file option as given: `--results`, the value typed, the kind it must be. */
export interface GivenFile {
  readonly option: string;
  readonly path: string;
  readonly expects: ExpectedFile;
}

/** The commands that read files, and the file options of each in the order of their usage. */
const COMMAND_FILES = {
  bench: [['--dataset', 'typed-decisions']],
  live: [['--dataset', 'typed-decisions']],
  probe: [['--dataset', 'typed-decisions']],
  score: [
    ['--dataset', 'offline-dataset'],
    ['--results', 'offline-results'],
  ],
  compare: [
    ['--dataset', 'offline-dataset'],
    ['--results', 'offline-results'],
  ],
  validate: [
    ['--dataset', 'offline-dataset'],
    ['--results', 'offline-results'],
  ],
  tune: [
    ['--dataset', 'offline-dataset'],
    ['--results', 'offline-results'],
  ],
  calibrate: [
    ['--dataset', 'offline-dataset'],
    ['--results', 'offline-results'],
  ],
  actions: [
    ['--dataset', 'offline-dataset'],
    ['--spec', 'action-spec'],
    ['--results', 'offline-results'],
  ],
  audit: [
    ['--transcripts', 'audit-transcripts'],
    ['--checks', 'audit-checks'],
  ],
} as const satisfies Record<string, readonly (readonly [string, ExpectedFile])[]>;

/** A command whose file options a hint can fill in. */
export type FileCommand = keyof typeof COMMAND_FILES;

/** The command that reads each kind of file, when the one running reads no such file. */
const READER_OF: Record<ExpectedFile, FileCommand> = {
  'typed-decisions': 'bench',
  'offline-dataset': 'score',
  'offline-results': 'score',
  'action-spec': 'actions',
  'audit-checks': 'audit',
  'audit-transcripts': 'audit',
};

/** What an unknown file of each kind is called in a hint. */
const PLACEHOLDER: Record<ExpectedFile, string> = {
  'typed-decisions': 'DATASET',
  'offline-dataset': 'DATASET',
  'offline-results': 'RESULTS',
  'action-spec': 'SPEC',
  'audit-checks': 'CHECKS',
  'audit-transcripts': 'TRANSCRIPTS',
};

/** A given file with the kind its first bytes say (null: unknown, or nothing to say). */
interface SniffedFile extends GivenFile {
  readonly kind: FileKind | null;
}

/**
 * Throws a UsageError for the first given file that is of another kind than its option
 * reads. `command` is the command running: a file it reads under another option is sent
 * there, with the other files given filled in (`decidekit tune --dataset D --results R`).
 */
export async function refuseWrongFiles(files: readonly GivenFile[], cwd: string, command?: FileCommand): Promise<void> {
  const sniffed: SniffedFile[] = [];
  for (const f of files) sniffed.push({ ...f, kind: await kindOf(f, cwd) });
  for (const f of sniffed) {
    if (f.expects === 'typed-decisions') {
      const folder = await folderProblem(f, cwd, command);
      if (folder !== null) throw new UsageError(folder);
    }
    const problem = f.kind === null ? null : wrongFileMessage(f, f.kind, { command, given: sniffed });
    if (problem !== null) throw new UsageError(problem);
  }
}

/**
 * `refuseWrongFiles` for the file options `command` declares (COMMAND_FILES), read from its
 * parsed option values by name: each command's refusal is one call, not a list written again.
 */
export async function refuseWrongFilesOf(
  command: FileCommand,
  values: Readonly<Record<string, unknown>>,
  cwd: string,
): Promise<void> {
  await refuseWrongFiles(givenFilesOf(command, values), cwd, command);
}

function givenFilesOf(command: FileCommand, values: Readonly<Record<string, unknown>>): GivenFile[] {
  const files: GivenFile[] = [];
  for (const [option, expects] of COMMAND_FILES[command]) {
    const value = values[option.slice(2)];
    const paths = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : [];
    for (const path of paths) files.push({ option, path, expects });
  }
  return files;
}

/** The files `command` reads (COMMAND_FILES), from its parsed option values: no output may replace one. */
export function filesReadBy(command: FileCommand, values: Readonly<Record<string, unknown>>): ReadFile[] {
  return givenFilesOf(command, values).map((f) => ({ named: f.option, path: f.path }));
}

async function kindOf(f: GivenFile, cwd: string): Promise<FileKind | null> {
  const path = resolve(cwd, f.path);
  const { kind, parquetColumns = [], gunzipped = null } = await sniffFile(path);
  // A line file named .gz is read gunzipped: what it holds decides, and the hint for it keeps
  // the name only where the command it names gunzips that name too.
  if (kind === 'gzip' && LINE_FORMATS.includes(f.expects) && path.endsWith('.gz'))
    return gunzipped === 'typed-decisions' && caseFileFormat(path) !== 'jsonl.gz' ? null : gunzipped;
  // Offline datasets and results may be Parquet too: only a Typed Decisions one (with its
  // `questions` and `gold` columns) is the wrong file.
  const typedDecisions = parquetColumns.includes('questions') && parquetColumns.includes('gold');
  if (kind === 'parquet' && OFFLINE.includes(f.expects) && !typedDecisions) return null;
  return kind;
}

/**
 * A folder given for a Typed Decisions dataset that has no manifest.json and holds none of
 * its files: say what it holds (audit transcripts, an offline dataset and results, ...) and
 * what reads them, rather than asking to restore a dataset folder it never was.
 */
async function folderProblem(f: GivenFile, cwd: string, running?: FileCommand): Promise<string | null> {
  const dir = resolve(cwd, f.path);
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) return null;
    names = (await readdir(dir)).sort();
  } catch {
    return null; // the loader words what is wrong with it
  }
  if (names.includes('manifest.json')) return null;
  const found: { name: string; kind: ExpectedFile }[] = [];
  const rows: string[] = [];
  for (const name of names.slice(0, MAX_FOLDER_FILES)) {
    const kind = await sniffFileKind(join(dir, name));
    if (kind === 'typed-decisions' || (kind === 'parquet' && name.endsWith('.parquet'))) rows.push(name);
    else if (kind !== null && kind in EXPECTED) found.push({ name, kind: kind as ExpectedFile });
  }
  const given = `${f.path} (given as ${f.option})`;
  // Typed Decisions rows without the manifest that vouches for them: not a dataset folder
  // (and nothing to restore), but each file is a dataset on its own.
  if (rows.length > 0)
    return `${given} is a folder of Typed Decisions files without manifest.json, not a dataset folder: give one file (\`decidekit ${running === 'live' || running === 'probe' ? running : 'bench'} --dataset ${shellWord(join(f.path, rows[0]!))}\`), or add a manifest.json listing each file with its split and sha256 (${WHAT_A_DATASET_FOLDER_IS})`;
  if (found.length === 0)
    return `${given} is a folder without manifest.json and no Typed Decisions files in it, not a Typed Decisions folder: give a dataset file (.jsonl, .jsonl.gz or .parquet) or a dataset folder (${WHAT_A_DATASET_FOLDER_IS})`;
  const items = found.map((x) => `${x.name} (${SHORT[x.kind]})`);
  const held = items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
  const files = found.map((x) => ({ ...x, path: join(f.path, x.name) }));
  const has = (kind: ExpectedFile) => files.some((x) => x.kind === kind);
  const results = files.filter((x) => x.kind === 'offline-results').length;
  const command: FileCommand = has('audit-transcripts')
    ? 'audit'
    : has('offline-dataset') && has('action-spec') && results > 0
      ? 'actions'
      : has('offline-dataset') && results > 1
        ? 'compare'
        : has('offline-dataset') || results > 0
          ? 'score'
          : READER_OF[found[0]!.kind];
  // score reads one results file: the first.
  const chosen =
    command === 'score' ? files.filter((x) => x.kind !== 'offline-results' || x === firstResults(files)) : files;
  return `${given} is a folder without manifest.json holding ${held}, not a Typed Decisions dataset: use \`${commandLine(command, chosen)}\``;
}

/** What a Typed Decisions folder holds, for the hints about folders that are not one. */
const WHAT_A_DATASET_FOLDER_IS =
  'a dataset folder holds manifest.json and the files it lists, as `decidekit dataset fetch typed-decisions` makes one and docs/file-formats.md describes';

const firstResults = (files: readonly { kind: ExpectedFile }[]) => files.find((x) => x.kind === 'offline-results');

/** Files of a folder looked at for a hint. */
const MAX_FOLDER_FILES = 200;

/** What each kind is, in a few words, for a folder's list. */
const SHORT: Record<ExpectedFile, string> = {
  'typed-decisions': 'a Typed Decisions dataset',
  'offline-dataset': 'an offline dataset',
  'offline-results': 'results',
  'action-spec': 'an action spec',
  'audit-checks': 'audit checks',
  'audit-transcripts': 'audit transcripts',
};

/**
 * `decidekit <command>` with each of its file options: the files known to be of that kind,
 * else a placeholder (`RESULTS`); options that read one file take the first.
 */
function commandLine(command: FileCommand, known: readonly { path: string; kind: FileKind | null }[]): string {
  const words = ['decidekit', command];
  for (const [option, kind] of COMMAND_FILES[command]) {
    const paths = [...new Set(known.filter((k) => k.kind === kind).map((k) => k.path))];
    const many =
      (command === 'compare' || command === 'validate' || command === 'actions') && kind === 'offline-results';
    const shown = paths.length === 0 ? [PLACEHOLDER[kind]] : many ? paths : paths.slice(0, 1);
    for (const p of shown) words.push(option, p === PLACEHOLDER[kind] ? p : shellWord(p));
  }
  return words.join(' ');
}

const OFFLINE: readonly ExpectedFile[] = ['offline-dataset', 'offline-results'];

/** Formats read line by line, so gzip is welcome under a `.gz` name. */
const LINE_FORMATS: readonly ExpectedFile[] = [
  'typed-decisions',
  'offline-dataset',
  'offline-results',
  'audit-transcripts',
];

/** What a hint knows: the command running and every file given to it, with its kind. */
export interface HintContext {
  readonly command: FileCommand | undefined;
  readonly given: readonly SniffedFile[];
}

/** The message for `kind` given as `f`, or null when the option reads that kind. */
export function wrongFileMessage(
  f: GivenFile,
  kind: FileKind,
  context: HintContext = { command: undefined, given: [] },
): string | null {
  if (kind === f.expects) return null;
  const file = shellWord(f.path);
  const given = `${f.path} (given as ${f.option})`;
  const lines = LINE_FORMATS.includes(f.expects);
  switch (kind) {
    case 'gzip':
      if (lines && f.path.endsWith('.gz')) return null;
      return lines
        ? `${given} is gzip-compressed but its name does not end in .gz: rename it to ${f.path}.gz (read as gzip) or gunzip it`
        : `${given} is gzip-compressed: gunzip it first`;
    case 'parquet':
      if (f.expects === 'typed-decisions')
        return f.path.endsWith('.parquet') ? null : `${given} is a Parquet file: rename it to end in .parquet`;
      return `${given} is a Parquet file (the Typed Decisions dataset?), not ${EXPECTED[f.expects]}: use \`decidekit bench --dataset ${file}\``;
    case 'json-document':
      return lines
        ? `${given} is a JSON document over several lines, not ${EXPECTED[f.expects]}: JSON Lines hold one JSON object a line (docs/file-formats.md)`
        : null;
    default:
      return `${given} is ${DESCRIBED[kind]}, not ${EXPECTED[f.expects]}: ${hintFor(kind, f, context)}`;
  }
}

const EXPECTED: Record<ExpectedFile, string> = {
  'typed-decisions': 'a Typed Decisions dataset (JSONL rows with workflow, state, questions)',
  'offline-dataset': 'an offline dataset (JSONL lines or Parquet rows with id, kind, correct)',
  'offline-results': 'a results file (JSONL lines or Parquet rows with case_id, model, decision)',
  'action-spec': 'an action spec (JSON with actions and rules)',
  'audit-checks': 'an audit checks file (JSON with checks)',
  'audit-transcripts': 'audit transcripts (JSONL lines with id, scenario, messages)',
};

const DESCRIBED: Record<Exclude<FileKind, 'gzip' | 'parquet' | 'json-document'>, string> = {
  ...EXPECTED,
  'bench-report': 'a bench report (JSON) written by `decidekit bench --out`',
  'live-record': 'a live session record (written by `decidekit live --record`)',
  'decision-export': 'a decision export (one row per decision, written by `decidekit runs export`)',
  'run-store': 'a SQLite database (a decidekit run store?)',
  html: 'an HTML report',
};

/**
 * Where the file goes: under another option of the command running when it reads that kind
 * ("give it as --results: `decidekit tune …`"), else to the command that reads it, with the
 * other files given filled in where they fit and placeholders for the rest.
 */
function hintFor(
  kind: Exclude<FileKind, 'gzip' | 'parquet' | 'json-document'>,
  f: GivenFile,
  context: HintContext,
): string {
  switch (kind) {
    case 'bench-report':
      return 'its run is in the run store: `decidekit runs list`, then `decidekit runs show RUN`';
    case 'run-store':
      return `list its runs with \`decidekit runs list --store ${shellWord(f.path)}\``;
    case 'html':
      return 'open it in a browser';
    case 'live-record':
      return "no command scores it: it is the session's log (docs/file-formats.md, Live record)";
    case 'decision-export':
      return `score it with SQL, e.g. in DuckDB: \`${duckDbCommandFor(f.path)}\` (\`decidekit sql\` prints the query; docs/file-formats.md)`;
    default: {
      // The file in its right place, and every other file given in the place its kind goes
      // (two files given the wrong way round come out the right way round).
      const known = [{ path: f.path, kind }, ...context.given.filter((g) => g.path !== f.path && g.kind !== null)];
      const own =
        context.command === undefined ? undefined : COMMAND_FILES[context.command].find(([, k]) => k === kind);
      if (context.command !== undefined && own !== undefined)
        return `give it as ${own[0]}: \`${commandLine(context.command, known)}\``;
      return `use \`${commandLine(READER_OF[kind], known)}\``;
    }
  }
}

/**
 * The DuckDB command line that scores a decision export: a `decisions` view over the file,
 * read by the reader its name asks for, then `decidekit sql`'s query.
 */
export function duckDbCommandFor(path: string): string {
  const reader = /\.parquet$/i.test(path) ? 'read_parquet' : /\.csv$/i.test(path) ? 'read_csv' : 'read_json';
  const view = `CREATE VIEW decisions AS SELECT * FROM ${reader}(${sqlString(path)})`;
  // Inside shell double quotes only these four stay special.
  return `duckdb -c "${view.replace(/[\\"$`]/g, '\\$&')}" -c "$(decidekit sql --dialect duckdb)"`;
}
