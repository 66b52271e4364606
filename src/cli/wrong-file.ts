/**
 * A file given to the wrong option (a Typed Decisions dataset as `score --results`, a run
 * store as `--dataset`, a gzip file without its `.gz` name, ...) is a usage error, said once
 * with what the file is and what to run instead, before any line is read.
 */
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { sniffFileKind, type FileKind } from '../datasets/file-kind.js';
import { shellWord } from '../reports/bench/bench-messages.js';

/** The kinds of file an option reads. */
export type ExpectedFile =
  'typed-decisions' | 'offline-dataset' | 'offline-results' | 'action-spec' | 'audit-checks' | 'audit-transcripts';

/** One file option as given: `--results`, the value typed, the kind it must be. */
export interface GivenFile {
  readonly option: string;
  readonly path: string;
  readonly expects: ExpectedFile;
}

/** Throws a UsageError for the first given file that is of another kind than its option reads. */
export async function refuseWrongFiles(files: readonly GivenFile[], cwd: string): Promise<void> {
  for (const f of files) {
    const kind = await sniffFileKind(resolve(cwd, f.path));
    // Offline datasets and results may be Parquet too: only a Typed Decisions one is the wrong file.
    if (kind === 'parquet' && OFFLINE.includes(f.expects) && !(await isTypedDecisionsParquet(resolve(cwd, f.path))))
      continue;
    const problem = kind === null ? null : wrongFileMessage(f, kind);
    if (problem !== null) throw new UsageError(problem);
  }
}

const OFFLINE: readonly ExpectedFile[] = ['offline-dataset', 'offline-results'];

/** A Parquet file with the Typed Decisions columns (`questions`, `gold`); reads its footer only. */
async function isTypedDecisionsParquet(path: string): Promise<boolean> {
  const { readParquetRows } = await import('../datasets/parquet-rows.js');
  const stop = new Error('columns read');
  let columns: readonly string[] = [];
  try {
    await readParquetRows(path, () => {}, {
      check: (info) => {
        columns = info.columns;
        throw stop;
      },
    });
  } catch (err) {
    // Unreadable: let the command's own reader say why.
    if (err !== stop) return false;
  }
  return columns.includes('questions') && columns.includes('gold');
}

/** Formats read line by line, so gzip is welcome under a `.gz` name. */
const LINE_FORMATS: readonly ExpectedFile[] = [
  'typed-decisions',
  'offline-dataset',
  'offline-results',
  'audit-transcripts',
];

/** The message for `kind` given as `f`, or null when the option reads that kind. */
export function wrongFileMessage(f: GivenFile, kind: FileKind): string | null {
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
      return `${given} is ${DESCRIBED[kind]}, not ${EXPECTED[f.expects]}: ${hintFor(kind, file)}`;
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
  'run-store': 'a SQLite database (a decidekit run store?)',
  html: 'an HTML report',
};

function hintFor(kind: Exclude<FileKind, 'gzip' | 'parquet' | 'json-document'>, file: string): string {
  switch (kind) {
    case 'typed-decisions':
      return `use \`decidekit bench --dataset ${file}\``;
    case 'offline-dataset':
      return `give it as --dataset: \`decidekit score --dataset ${file} --results RESULTS\``;
    case 'offline-results':
      return `give it as --results: \`decidekit score --dataset DATASET --results ${file}\``;
    case 'action-spec':
      return `give it as --spec: \`decidekit actions --dataset DATASET --spec ${file} --results RESULTS\``;
    case 'audit-checks':
      return `use \`decidekit audit --transcripts TRANSCRIPTS --checks ${file}\``;
    case 'audit-transcripts':
      return `use \`decidekit audit --transcripts ${file} --checks CHECKS\``;
    case 'bench-report':
      return 'its run is in the run store: `decidekit runs list`, then `decidekit runs show RUN`';
    case 'run-store':
      return `list its runs with \`decidekit runs list --store ${file}\``;
    case 'html':
      return 'open it in a browser';
  }
}
