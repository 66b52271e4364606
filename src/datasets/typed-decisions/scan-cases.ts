/**
 * A case file read in two passes, so a large dataset is never held whole. Pass 1
 * (`scanCaseFile`) checks every row exactly as `readCases` does (the same problems, file,
 * line and field, every problem reported before anything is sent) and keeps of each case
 * only what planning needs (id, workflow, question count, line). Pass 2 (`readCases` of the
 * result) reads the chosen cases again, in file order, into a buffer the runner drains.
 *
 * JSONL and JSONL.gz are streamed; a parquet file's cases are loaded once and handed out
 * from memory (the fetched Typed Decisions test split is 400 cases).
 */
import { InvalidInputError } from '../../core/errors.js';
import { parseStrictJson } from '../../core/strict-json.js';
import { isCanonicalJsonText, JsonText } from '../../core/json-text.js';
import { readLineBytes } from '../read-lines.js';
import { lineDigest } from './line-digest.js';
import { CaseCollector } from './case-collector.js';
import { caseOfCheckedRow } from './decoded-row.js';
import { topLevelFields } from './line-fields.js';
import type { QuestionSet, QuestionType } from '../../core/question.js';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { arrayCaseReader, BufferedCaseReader, type CaseReader } from './case-reader.js';
import { LineSpool } from './line-spool.js';
import { caseFileFormat, forEachJsonlRow, readParquetCases, type ReadCasesOptions } from './read-cases.js';

/** A case as planning sees it: no state, questions or gold. */
export interface CaseEntry {
  readonly id: string;
  readonly workflow: string;
  /** Its questions (the decisions it asks for). */
  readonly questions: number;
  /** Where pass 2 finds it: the 1-based line of a JSONL file (the position among the cases of a parquet file). */
  readonly line: number;
  /** A JSONL case's line as pass 1 checked it (datasets/typed-decisions/line-digest.ts); pass 2 compares it. */
  readonly digest?: number;
}

export interface ReadAgainOptions {
  /** Cases held at most (plus one read of 1 MiB). */
  readonly bufferCases: number;
  /**
   * A case whose state is only sent on (not shown): an object or array state already written
   * as `JSON.stringify` writes it is kept as that text (`JsonText`), not parsed. Default false.
   */
  readonly stateAsText?: boolean;
}

export interface ScannedCaseFile {
  /** Cases of the requested split, in file order. */
  readonly entries: CaseEntry[];
  /** Data rows in the file, of every split (blank lines not counted). */
  readonly rows: number;
  /** Split names seen in the file's `split` column or field. */
  readonly splits: ReadonlySet<string>;
  /** `workflow/qid` -> 16-hex sha256 of the question's canonical text, keys sorted (as `questionSetOf`). */
  readonly questionSet: Record<string, string>;
  /** `workflow/qid` -> the question's type (what a calibration map by type is checked against). */
  readonly questionTypes: Record<string, QuestionType>;
  /**
   * Reads the cases of `entries` (some of `this.entries`, in their order) again, each checked
   * again: at most about `bufferCases` (plus one read of 1 MiB) are held at a time. A row
   * that no longer holds its case (the file changed since pass 1) fails the reader's take.
   */
  readCases(entries: readonly CaseEntry[], options: ReadAgainOptions): CaseReader;
}

/** Pass 1 over a JSONL, JSONL.gz or parquet file; throws InvalidInputError listing every problem. */
export async function scanCaseFile(path: string, options: ReadCasesOptions = {}): Promise<ScannedCaseFile> {
  const format = caseFileFormat(path);
  if (format === 'parquet') return scanParquet(path, options);
  return scanJsonl(path, { ...options, gunzip: format === 'jsonl.gz' });
}

async function scanJsonl(
  path: string,
  options: ReadCasesOptions & { readonly gunzip: boolean },
): Promise<ScannedCaseFile> {
  const file = options.displayName ?? path;
  const collector = new CaseCollector(file);
  const entries: CaseEntry[] = [];
  /** One string per workflow name, not one per case. */
  const workflows = new Map<string, string>();
  const checked = new LineQuestionSets();
  const { rows, splits } = await forEachJsonlRow(
    path,
    collector,
    options,
    (value, lineNumber, digest, questions, at) => {
      const c = collector.check(value, lineNumber, questions);
      if (c === null) return null;
      checked.set(lineNumber, c.questions, at);
      let workflow = workflows.get(c.workflow);
      if (workflow === undefined) workflows.set(c.workflow, (workflow = c.workflow));
      entries.push({ id: c.id, workflow, questions: c.questions.length, line: lineNumber, digest: digest() });
      return c;
    },
  );
  collector.throwIfProblems();
  return {
    entries,
    rows,
    splits,
    questionSet: collector.questionSet(),
    questionTypes: collector.questionTypes(),
    readCases: jsonlReaderOf(path, file, options.gunzip, checked),
  };
}

/** Made outside `scanJsonl`, so the reader does not keep pass 1's collector alive (only its question sets). */
function jsonlReaderOf(
  path: string,
  file: string,
  gunzip: boolean,
  checked: LineQuestionSets,
): ScannedCaseFile['readCases'] {
  return (chosen, options) => readJsonlEntries(path, file, chosen, gunzip, options, checked);
}

/**
 * Pass 1's question set of each case line, for pass 2: a line-indexed number into the few
 * sets the collector shares (4 bytes a line), not a reference a case; and where the line's
 * questions are in its text, when pass 1 found them (8 bytes a line), so pass 2 steps over
 * them instead of reading them again.
 */
class LineQuestionSets {
  #setOfLine: Int32Array = new Int32Array(1024);
  // [from, to) of each line's questions text, as two entries; 0, 0 when not known.
  #spanOfLine: Int32Array = new Int32Array(2048);
  readonly #sets: QuestionSet[] = [];
  readonly #numberOf = new Map<QuestionSet, number>();

  set(line: number, questions: QuestionSet, span: readonly [number, number] | undefined): void {
    let n = this.#numberOf.get(questions);
    if (n === undefined) {
      this.#sets.push(questions);
      this.#numberOf.set(questions, (n = this.#sets.length));
    }
    if (line >= this.#setOfLine.length) {
      const length = Math.max(line + 1, this.#setOfLine.length * 2);
      this.#setOfLine = grown(this.#setOfLine, length);
      this.#spanOfLine = grown(this.#spanOfLine, 2 * length);
    }
    this.#setOfLine[line] = n;
    if (span !== undefined) {
      this.#spanOfLine[2 * line] = span[0];
      this.#spanOfLine[2 * line + 1] = span[1];
    }
  }

  of(line: number): QuestionSet | undefined {
    const n = this.#setOfLine[line] ?? 0;
    return n === 0 ? undefined : this.#sets[n - 1];
  }

  /** Where the line's questions text is, or undefined when pass 1 read them in full. */
  spanOf(line: number): readonly [number, number] | undefined {
    const to = this.#spanOfLine[2 * line + 1] ?? 0;
    return to === 0 ? undefined : [this.#spanOfLine[2 * line]!, to];
  }
}

function grown(array: Int32Array, length: number): Int32Array {
  const out = new Int32Array(length);
  out.set(array);
  return out;
}

/** The fields pass 2 reads of a line: its id, workflow and questions are pass 1's. */
const FIELDS_READ_AGAIN = new Set(['state', 'gold']);

/**
 * Whether a line pass 1 checked is read again with the same bytes (its digest matches): its
 * case is then built when taken (only its id, workflow, state and gold are parsed, by plain
 * JSON.parse; its questions are pass 1's, since every check would pass again). False when
 * its bytes changed (or there is no digest), for the full check to say why.
 */
function isUnchangedLine(
  bytes: Buffer,
  start: number,
  end: number,
  digest: number,
  questions: QuestionSet | undefined,
): boolean {
  return questions !== undefined && !Number.isNaN(digest) && lineDigest(bytes, start, end) === digest;
}

/**
 * The case of an unchanged line (see `isUnchangedLine`): its state and gold read from the
 * line, its id, workflow and questions those pass 1 read from the same bytes (pass 1's
 * strings: the run's case ids and its per-case numbers then share one copy of each id);
 * null when it does not build after all. `stateAsText`: a state already written as
 * `JSON.stringify` writes it stays that text. `questionsAt`: where pass 1 found the line's
 * questions text (stepped over, not read).
 */
function caseOfUnchangedLine(
  text: string,
  checked: { readonly id: string; readonly workflow: string; readonly questions: QuestionSet },
  stateAsText: boolean,
  questionsAt: readonly [number, number] | undefined,
): TypedDecisionsCase | null {
  const value: Record<string, unknown> = { id: checked.id, workflow: checked.workflow };
  for (const [key, [from, to]] of topLevelFields(text, FIELDS_READ_AGAIN, questionsAt)) {
    const field = text.slice(from, to);
    value[key] =
      stateAsText && key === 'state' && isCanonicalJsonText(field)
        ? new JsonText(field)
        : (JSON.parse(field) as unknown);
  }
  return caseOfCheckedRow(value, checked.questions);
}

/** Pass 2: the chosen lines parsed and checked again; the other lines are not even decoded. */
function readJsonlEntries(
  path: string,
  file: string,
  entries: readonly CaseEntry[],
  gunzip: boolean,
  options: ReadAgainOptions,
  checked: LineQuestionSets,
): CaseReader {
  const reader = new BufferedCaseReader(options.bufferCases);
  const stateAsText = options.stateAsText === true;
  // Pass 1 checked the ids: no map of every id here.
  const collector = new CaseCollector(file, { uniqueIds: false });
  // Of each entry only its line, digest, id and workflow, so the caller's entries can be let go.
  const lines = Float64Array.from(entries, (e) => e.line);
  const digests = Float64Array.from(entries, (e) => e.digest ?? Number.NaN);
  const ids = entries.map((e) => e.id);
  const workflows = entries.map((e) => e.workflow);
  let next = 0;
  const changed = (line: number | null, message: string): InvalidInputError =>
    new InvalidInputError([
      { file, line, message: `${message}: the file changed after it was checked (run the command again)` },
    ]);
  // Unchanged lines wait as bytes in the spool (the read buffer is reused), each built into
  // its case when taken, in order, by this one function.
  const spool = new LineSpool();
  const takeSpooled = (): TypedDecisionsCase => {
    const text = spool.shift();
    const lineNumber = spool.tag;
    const id = ids[spool.secondTag]!;
    const workflow = workflows[spool.secondTag]!;
    const questions = checked.of(lineNumber)!;
    const c = caseOfUnchangedLine(text, { id, workflow, questions }, stateAsText, checked.spanOf(lineNumber));
    if (c === null) throw changed(lineNumber, `case ${id} is no longer on this line`);
    return c;
  };
  readLineBytes(
    path,
    (bytes, start, end, lineNumber) => {
      if (next >= lines.length || lineNumber !== lines[next]) return;
      const digest = digests[next]!;
      const id = ids[next++]!;
      if (isUnchangedLine(bytes, start, end, digest, checked.of(lineNumber))) {
        spool.push(bytes, start, end, lineNumber, next - 1);
        reader.push(takeSpooled);
        return;
      }
      const parsed = parseStrictJson(bytes.toString('utf8', start, end));
      const c = parsed.ok ? collector.check(parsed.value, lineNumber) : null;
      if (c === null || c.id !== id) throw changed(lineNumber, `case ${id} is no longer on this line`);
      // The same case with other bytes (a gold label changed in place) is not the case checked.
      if (!Number.isNaN(digest) && lineDigest(bytes, start, end) !== digest)
        throw changed(lineNumber, `case ${id} was edited on this line`);
      // With pass 1's string of the id: the run's case ids and its per-case numbers then
      // share one copy of each id instead of holding two.
      reader.push({ ...c, id });
    },
    { gunzip, beforeRead: () => (next >= lines.length ? false : reader.waitForRoom()) },
  ).then(
    () => reader.end(next >= lines.length ? undefined : { error: changed(null, `case ${ids[next]!} is missing`) }),
    (error: unknown) => reader.end({ error }),
  );
  return reader;
}

async function scanParquet(path: string, options: ReadCasesOptions): Promise<ScannedCaseFile> {
  const read = await readParquetCases(path, options);
  const cases = read.cases;
  return {
    entries: cases.map((c, i) => ({ id: c.id, workflow: c.workflow, questions: c.questions.length, line: i + 1 })),
    rows: read.rows,
    splits: read.splits,
    questionSet: read.questionSet,
    questionTypes: read.questionTypes,
    readCases: (chosen) => arrayCaseReader(chosen.map((e) => cases[e.line - 1])),
  };
}
