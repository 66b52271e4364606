/** Reads Typed Decisions cases from JSONL, JSONL.gz or the dataset's parquet file. */
import type { QuestionType } from '../../core/question.js';
import { jsonProblemMessage, parseStrictJson } from '../../core/strict-json.js';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { isRecord, preview } from '../../core/json-value.js';
import { readParquetRows, requireColumns } from '../parquet-rows.js';
import { readLineBytes } from '../read-lines.js';
import { lineDigest } from './line-digest.js';
import { CaseCollector } from './case-collector.js';
import { RepeatedQuestions } from './repeated-questions.js';
import type { QuestionSet } from '../../core/question.js';

export interface ReadCasesResult {
  /** Cases of the requested split, in file order. */
  readonly cases: TypedDecisionsCase[];
  /** Data rows in the file, of every split (blank lines not counted). */
  readonly rows: number;
  /** Split names seen in the file's `split` column or field. */
  readonly splits: ReadonlySet<string>;
  /** `questionSetOf(cases)`, from the schemas the checks already hashed. */
  readonly questionSet: Record<string, string>;
  /** `workflow/qid` -> the question's type, keys sorted. */
  readonly questionTypes: Record<string, QuestionType>;
}

export interface ReadCasesOptions {
  /** Keep only rows of this split; rows without a split field are kept. Default: every row. */
  readonly split?: string;
  /** How errors name the file (default: the path). */
  readonly displayName?: string;
}

export type CaseFileFormat = 'jsonl' | 'jsonl.gz' | 'parquet';

/** The format of a path by its name, or null. */
export function caseFileFormat(path: string): CaseFileFormat | null {
  if (path.endsWith('.parquet')) return 'parquet';
  if (path.endsWith('.jsonl.gz') || path.endsWith('.json.gz') || path.endsWith('.ndjson.gz')) return 'jsonl.gz';
  if (path.endsWith('.jsonl') || path.endsWith('.ndjson')) return 'jsonl';
  return null;
}

export async function readCases(path: string, options: ReadCasesOptions = {}): Promise<ReadCasesResult> {
  const format = caseFileFormat(path);
  if (format === 'parquet') return readParquetCases(path, options);
  return readJsonlCases(path, { ...options, gunzip: format === 'jsonl.gz' });
}

/** Decoded rows (`{id, workflow, state, questions, gold}` JSON) of JSONL or JSONL.gz, validated. */
export async function readJsonlCases(
  path: string,
  options: ReadCasesOptions & { readonly gunzip?: boolean } = {},
): Promise<ReadCasesResult> {
  const collector = new CaseCollector(options.displayName ?? path);
  const { rows, splits } = await forEachJsonlRow(path, collector, options, (value, line, _digest, questions) =>
    collector.add(value, line, questions),
  );
  return {
    cases: collector.finish(),
    rows,
    splits,
    questionSet: collector.questionSet(),
    questionTypes: collector.questionTypes(),
  };
}

/**
 * Calls `onRow` with each data row of a JSONL or JSONL.gz case file that is of the requested
 * split (or has none), strictly parsed, its 1-based line and a digest of the line's bytes
 * (computed when called, during the call only); a line that does not parse is
 * `collector`'s problem. Returns the data rows of every split and the split names seen.
 */
/**
 * Calls `onRow` with each row of a JSONL file parsed strictly (a row that does not parse is a
 * problem of `collector`'s), its line number, its digest, and, when its questions repeat
 * those of a row checked before (`RepeatedQuestions`), their checked question set (the row's
 * `questions` is then left out) and where their text is in the line. `onRow` returns the
 * row's case when it passed.
 */
export async function forEachJsonlRow(
  path: string,
  collector: CaseCollector,
  options: ReadCasesOptions & { readonly gunzip?: boolean },
  onRow: (
    value: unknown,
    lineNumber: number,
    digest: () => number,
    questions: QuestionSet | undefined,
    questionsSpan: readonly [number, number] | undefined,
  ) => TypedDecisionsCase | null,
): Promise<Pick<ReadCasesResult, 'rows' | 'splits'>> {
  const splits = new Set<string>();
  const repeated = new RepeatedQuestions();
  let rows = 0;
  await readLineBytes(
    path,
    (bytes, start, end, lineNumber) => {
      const line = bytes.toString('utf8', start, end);
      if (line.trim() === '') return;
      rows++;
      const fast = repeated.parse(line);
      const parsed = fast === null ? parseStrictJson(line) : ({ ok: true, value: fast.value } as const);
      if (!parsed.ok) {
        collector.problem(lineNumber, jsonProblemMessage(parsed));
        return;
      }
      const value = parsed.value;
      if (isRecord(value) && value['split'] !== undefined && value['split'] !== null) {
        const split = value['split'];
        // Not "no split" (that is absent or null, as in a Parquet column): such a row would
        // join the cases of every split.
        if (typeof split !== 'string' || split === '') {
          const id = typeof value['id'] === 'string' ? value['id'] : undefined;
          collector.problem(lineNumber, `split must be a non-empty string, got ${preview(split)}`, id, 'split');
          return;
        }
        splits.add(split);
        if (options.split !== undefined && split !== options.split) return;
      }
      const c = onRow(value, lineNumber, () => lineDigest(bytes, start, end), fast?.questions, fast?.span);
      if (c !== null && fast === null && collector.isShared(c.questions))
        repeated.remember(line, c.workflow, c.questions);
    },
    { gunzip: options.gunzip ?? path.endsWith('.gz') },
  );
  return { rows, splits };
}

/** Columns decoded from the parquet file. `factors` and `label_agreement` are never read. */
const REQUIRED_COLUMNS = ['id', 'workflow', 'state', 'questions', 'gold'] as const;
const JSON_COLUMNS = ['state', 'questions', 'gold'] as const;

/** One parquet row decoded to the JSONL form, or why it could not be. */
export type DecodedParquetRow =
  | { readonly row: number; readonly split: string | null; readonly value: Record<string, unknown> }
  | {
      readonly row: number;
      readonly split: string | null;
      readonly caseId: string | undefined;
      readonly problem: string;
      readonly field: string;
    };

/**
 * Decodes the dataset's parquet file (columns id, split, workflow, state, questions, gold,
 * factors, label_agreement, n_questions; the JSON columns are strings) into decoded rows,
 * one row group at a time through the one Parquet reader (datasets/parquet-rows.ts).
 * Rows of other splits are left out when `split` is given. Hidden columns are not read.
 */
export async function decodeParquetRows(
  path: string,
  options: ReadCasesOptions = {},
): Promise<{ rows: DecodedParquetRow[]; total: number; splits: Set<string> }> {
  const file = options.displayName ?? path;
  const rows: DecodedParquetRow[] = [];
  const splits = new Set<string>();
  const info = await readParquetRows(
    path,
    (object, row) => {
      const split = typeof object['split'] === 'string' ? object['split'] : null;
      if (split !== null) splits.add(split);
      if (options.split !== undefined && split !== null && split !== options.split) return;
      const id = object['id'];
      const caseId = typeof id === 'string' ? id : undefined;
      const value: Record<string, unknown> = { id, workflow: object['workflow'] };
      for (const column of JSON_COLUMNS) {
        const raw = object[column];
        if (typeof raw !== 'string') {
          value[column] = raw;
          continue;
        }
        const parsed = parseStrictJson(raw);
        if (parsed.ok) {
          value[column] = parsed.value;
        } else {
          rows.push({
            row,
            split,
            caseId,
            field: column,
            problem:
              parsed.problem === 'syntax'
                ? `column ${column} is not valid JSON (${parsed.message})`
                : `column ${column}: ${parsed.message}`,
          });
          return;
        }
      }
      rows.push({ row, split, value });
    },
    {
      columns: [...REQUIRED_COLUMNS, 'split'],
      displayName: file,
      check: ({ columns }) => requireColumns(file, columns, REQUIRED_COLUMNS),
    },
  );
  return { rows, total: info.rows, splits };
}

export async function readParquetCases(path: string, options: ReadCasesOptions = {}): Promise<ReadCasesResult> {
  const file = options.displayName ?? path;
  const decoded = await decodeParquetRows(path, options);
  const collector = new CaseCollector(file);
  for (const r of decoded.rows) {
    if ('problem' in r) collector.problem(r.row, r.problem, r.caseId, r.field);
    else collector.add(r.value, r.row);
  }
  return {
    cases: collector.finish(),
    rows: decoded.total,
    splits: decoded.splits,
    questionSet: collector.questionSet(),
    questionTypes: collector.questionTypes(),
  };
}
