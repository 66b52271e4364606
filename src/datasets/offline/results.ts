/**
 * Reads one model's saved results (docs/file-formats.md, "Results") as a stream,
 * strictly: every violation is a problem naming file, line, case and field; nothing is
 * repaired, clipped or renormalised. Memory stays bounded by the dataset, not the file.
 */
import { given } from '../../core/given.js';
import { KNOWN_KEYS_BESIDE, misspeltKeyHint } from '../../core/offline/misspelt-key.js';
import { MAX_RESULT_MEASURE } from '../../core/offline/case.js';
import type { ChoiceDecision, OfflineDecision, OfflineResult, OfflineCase } from '../../core/offline/case.js';
import {
  isFiniteNumber,
  isNonEmptyString,
  isProbability,
  isRecord,
  preview,
  type JsonRecord,
} from '../../core/json-value.js';
import { ProblemList } from '../../core/problem-list.js';
import { PROBABILITY_SUM_TOLERANCE } from '../../core/question.js';
import {
  createOfflineAccumulator,
  type OfflineAccumulatorOptions,
  type OfflineSummary,
} from '../../core/offline/summary.js';
import { KIND_CHOICE, KIND_YES_NO } from './fast/case-table.js';
import { caseTableOf, NOT_JSON, parseJsonLine, reportBadJson, type OfflineDataset } from './dataset.js';
import { isParquetFile, readParquetRows, requireColumns } from '../parquet-rows.js';
import { startResultsSplit, type ResultsSplit, type ResultsSplitOptions } from './fast/results-split.js';
import { makeResult, readResultLines, ResultsReadState, type FastResult } from './fast/fast-results.js';

export interface ReadResultsSummary {
  /** The model named on every line; null when the file has no results. */
  readonly model: string | null;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Dataset cases without a result. */
  readonly missing: number;
}

/** Where valid results go: the fast path's bare values, or the slow path's objects. */
interface ResultSink {
  /** A valid line read from its bytes: `r` holds its values, for case `r.index` of the table. */
  fast(r: FastResult): void;
  /** A valid line read by JSON.parse and the full validation. */
  slow(index: number, result: OfflineResult): void;
}

/**
 * Streams a results file (`.gz` is gunzipped) and calls `onResult` for every valid line,
 * in file order. At the end, throws InvalidInputError listing every problem (capped at 50,
 * the rest counted) when there was any; `onResult` is never called for an invalid line.
 */
export async function readResults(
  path: string,
  dataset: OfflineDataset,
  onResult: (result: OfflineResult, c: OfflineCase) => void,
  split: ReadResultsOptions = {},
): Promise<ReadResultsSummary> {
  let cases: readonly OfflineCase[] | null = null;
  const caseAt = (i: number): OfflineCase => (cases ??= dataset.cases)[i]!;
  return streamResults(
    path,
    dataset,
    {
      fast: (r) => onResult(r.result(), caseAt(r.index)),
      slow: (i, result) => onResult(result, caseAt(i)),
    },
    split,
  );
}

/** How a results file is read: see ResultsSplitOptions; `prefetched` is a read started by prefetchResults. */
export interface ReadResultsOptions extends ResultsSplitOptions {
  readonly prefetched?: PrefetchedResults;
}

/** A results file being pre-parsed on a worker thread while the dataset loads. */
export interface PrefetchedResults {
  readonly path: string;
  /** @internal Whether the file is Parquet (told once, here, for the later read too). */
  readonly parquet: Promise<boolean>;
  /** @internal */
  readonly split: Promise<ResultsSplit | null>;
  /** Stops the worker when the results will not be read after all (e.g. the dataset was invalid). */
  close(): Promise<void>;
}

/**
 * Starts reading a large plain results file on a second thread (up to its syntax; nothing
 * needs the dataset yet), to be passed to scoreResults/readResults as `{ prefetched }`
 * once the dataset is loaded: the two files are then parsed at the same time. For small or
 * gzipped files it does nothing (the later call reads the file itself). Close it when the
 * results are not read after all.
 */
export function prefetchResults(path: string, options: ResultsSplitOptions = {}): PrefetchedResults {
  // A Parquet file is not split into lines: it is read row group by row group later.
  const parquet = isParquetFile(path);
  const split = parquet
    .then((isParquet) => (isParquet ? null : startResultsSplit(path, { ...options, mainShare: 0 })))
    .catch(() => null);
  return {
    path,
    parquet,
    split,
    async close() {
      await (await split)?.close();
    },
  };
}

/** Columns a Parquet results file must have (`cost_usd` and `latency_ms` are optional). */
const RESULTS_COLUMNS = ['case_id', 'model', 'decision'];

async function streamResults(
  path: string,
  dataset: OfflineDataset,
  sink: ResultSink,
  splitOptions: ReadResultsOptions = {},
): Promise<ReadResultsSummary> {
  const state = new ResultsReadState(caseTableOf(dataset));
  const problems = new ProblemList();
  const prefetched = splitOptions.prefetched?.path === path ? splitOptions.prefetched : undefined;
  if (await (prefetched?.parquet ?? isParquetFile(path))) {
    // Problems and messages name rows.
    const check = strictCheck(path, dataset, state, problems, sink, 'row');
    await readParquetRows(
      path,
      (value, row) => {
        state.lines++;
        if (reportBadJson(value, path, row, problems)) check(value, row);
      },
      { check: (info) => requireColumns(path, info.columns, RESULTS_COLUMNS), jsonTextColumns: ['decision'] },
    );
    return finishResults(path, state, problems);
  }
  const check = strictCheck(path, dataset, state, problems, sink, undefined);
  const slow = (line: string | null, lineNumber: number): void => {
    const value = parseJsonLine(line, lineNumber, path, problems);
    if (value === NOT_JSON) return;
    check(value, lineNumber);
  };
  const split: ResultsSplit | null =
    prefetched !== undefined ? await prefetched.split : await startResultsSplit(path, splitOptions);
  // Lines of the usual shape are read from their bytes (see fast/); every other line comes back to `slow`.
  await readResultLines(path, split, state, (r) => sink.fast(r), slow);
  return finishResults(path, state, problems);
}

/** Every problem of the file; an empty file (or one of blank lines only) is one: it scores nothing. */
function finishResults(path: string, state: ResultsReadState, problems: ProblemList): ReadResultsSummary {
  if (state.lines === 0 && problems.count === 0)
    problems.add({ file: path, line: null, message: 'no results in the file' });
  problems.throwIfAny();
  return { model: state.model, lines: state.lines, missing: state.table.size - state.seen };
}

/**
 * The strict check of one parsed line (or Parquet row): every violation a problem naming
 * file, line, case and field; a valid result goes to the sink.
 */
function strictCheck(
  path: string,
  dataset: OfflineDataset,
  state: ResultsReadState,
  problems: ProblemList,
  sink: ResultSink,
  unit: 'row' | undefined,
): (value: unknown, lineNumber: number) => void {
  const { table, firstLine, fast } = state;
  return (value, lineNumber) => {
    const before = problems.count;
    let caseId: string | undefined;
    const report = (field: string | undefined, message: string): void =>
      problems.add({
        file: path,
        line: lineNumber,
        ...given({ unit, caseId, field }),
        message,
      });

    if (!isRecord(value)) {
      report(undefined, `expected a JSON object, got ${preview(value)}`);
      return;
    }
    const rawId = value['case_id'];
    let index = -1;
    if (!isNonEmptyString(rawId)) {
      report(
        'case_id',
        rawId === undefined
          ? `case_id is missing${missingKeyHint(value, 'case_id')}`
          : `case_id must be a non-empty string, got ${preview(rawId)}`,
      );
    } else {
      caseId = rawId;
      index = table.indexOfId(rawId, fast.index + 1);
      // The next line's case is probably the one after this (see indexOfIdBytes in fast/).
      if (index !== -1) fast.index = index;
      if (index === -1) {
        report('case_id', `case_id ${JSON.stringify(rawId)} is not in the dataset ${dataset.path}`);
      } else if (firstLine[index] !== 0) {
        report('case_id', `duplicate result for this case (first on ${unit ?? 'line'} ${firstLine[index]})`);
      } else {
        firstLine[index] = lineNumber;
        state.seen++;
      }
    }

    const rawModel = value['model'];
    if (!isNonEmptyString(rawModel)) {
      report(
        'model',
        rawModel === undefined
          ? `model is missing${missingKeyHint(value, 'model')}`
          : `model must be a non-empty string, got ${preview(rawModel)}`,
      );
    } else if (state.model === null) {
      state.setModel(rawModel, lineNumber);
    } else if (rawModel !== state.model) {
      report(
        'model',
        `model ${JSON.stringify(rawModel)} differs from ${JSON.stringify(state.model)} on ${unit ?? 'line'} ${state.modelLine} (one results file is one model)`,
      );
    }

    const c = index === -1 ? undefined : table.caseAt(index);
    const decision =
      c === undefined ? null : parseOfflineDecision(value['decision'], c, report, missingKeyHint(value, 'decision'));
    const costUsd = optionalNonNegative(value, 'cost_usd', report);
    const latencyMs = optionalNonNegative(value, 'latency_ms', report);
    const model = state.model;
    if (problems.count !== before || c === undefined || decision === null || model === null) return;
    sink.slow(index, makeResult(c.id, model, decision, costUsd, latencyMs));
  };
}

/** Reads a whole (small) results file into memory: for commands that need several passes. */
export async function loadResults(
  path: string,
  dataset: OfflineDataset,
): Promise<{ readonly model: string | null; readonly results: OfflineResult[] }> {
  const results: OfflineResult[] = [];
  const { model } = await readResults(path, dataset, (r) => results.push(r));
  return { model, results };
}

type Report = (field: string | undefined, message: string) => void;

/** The "did you mean" of a missing `key` when `record` has a key that looks like it misspelt (core/offline/misspelt-key.ts). */
function missingKeyHint(record: JsonRecord, key: string): string {
  return misspeltKeyHint(Object.keys(record), key, KNOWN_KEYS_BESIDE[key] ?? [key]);
}

function optionalNonNegative(value: JsonRecord, key: string, report: Report): number | undefined {
  const v = value[key];
  if (v === undefined || v === null) return undefined;
  if (isFiniteNumber(v) && v >= 0 && v <= MAX_RESULT_MEASURE) return v;
  report(
    key,
    isFiniteNumber(v) && v > MAX_RESULT_MEASURE
      ? `${key} must be at most ${MAX_RESULT_MEASURE} (larger values would overflow the sums), got ${preview(v)}`
      : `${key} must be a finite number >= 0, got ${preview(v)}`,
  );
  return undefined;
}

/** Checks a saved decision against its case, reporting every problem; null when invalid. */
export function parseOfflineDecision(
  raw: unknown,
  c: OfflineCase,
  report: Report,
  missingHint = '',
): OfflineDecision | null {
  if (!isRecord(raw)) {
    report(
      'decision',
      raw === undefined
        ? `decision is missing (${expectedShape(c)})${missingHint}`
        : `decision must be an object (${expectedShape(c)}), got ${preview(raw)}`,
    );
    return null;
  }
  switch (c.kind) {
    case 'yes_no': {
      const p = raw['probability'];
      if (!isProbability(p)) {
        report(
          'probability',
          p === undefined
            ? `probability is missing (P(yes) in [0, 1])${missingKeyHint(raw, 'probability')}`
            : `probability must be a number in [0, 1], got ${preview(p)}`,
        );
        return null;
      }
      return { kind: 'yes_no', probability: p };
    }
    case 'choice':
      return parseChoiceDecision(raw, c.options, report);
    case 'score': {
      const v = raw['value'];
      let ok = true;
      if (!isFiniteNumber(v)) {
        report(
          'value',
          v === undefined
            ? `value is missing (a number in [${c.scoreMin}, ${c.scoreMax}])${missingKeyHint(raw, 'value')}`
            : `value must be a finite number, got ${preview(v)}`,
        );
        ok = false;
      } else if (v < c.scoreMin || v > c.scoreMax) {
        report('value', `value ${v} is outside [${c.scoreMin}, ${c.scoreMax}]`);
        ok = false;
      }
      const conf = raw['confidence'];
      const hasConf = conf !== undefined && conf !== null;
      if (hasConf && !isProbability(conf)) {
        report('confidence', `confidence must be a number in [0, 1], got ${preview(conf)}`);
        ok = false;
      }
      if (!ok) return null;
      return hasConf
        ? { kind: 'score', value: v as number, confidence: conf as number }
        : { kind: 'score', value: v as number };
    }
    default: {
      const never: never = c;
      throw new TypeError(`unexpected case ${preview(never)}`);
    }
  }
}

function expectedShape(c: OfflineCase): string {
  return c.kind === 'yes_no'
    ? '{"probability": p}'
    : c.kind === 'choice'
      ? '{"probabilities": ..., "picked": ...}'
      : '{"value": v}';
}

function parseChoiceDecision(raw: JsonRecord, options: readonly string[], report: Report): ChoiceDecision | null {
  const rawP = raw['probabilities'];
  let ok = true;
  const probabilities = new Array<number>(options.length);
  if (Array.isArray(rawP)) {
    if (rawP.length !== options.length) {
      report(
        'probabilities',
        `probabilities lists ${rawP.length} values, expected ${options.length} (one per option: ${options.join(', ')})`,
      );
      ok = false;
    } else {
      for (let k = 0; k < rawP.length; k++) {
        const p: unknown = rawP[k];
        if (!isProbability(p)) {
          report('probabilities', `probabilities[${k}] (${options[k]}) must be a number in [0, 1], got ${preview(p)}`);
          ok = false;
        } else {
          probabilities[k] = p;
        }
      }
    }
  } else if (isRecord(rawP)) {
    // Options without a probability are one cause (an empty object misses them all): one problem.
    const missing: string[] = [];
    for (let k = 0; k < options.length; k++) {
      const name = options[k] as string;
      const p = Object.hasOwn(rawP, name) ? rawP[name] : undefined;
      if (p === undefined) {
        missing.push(name);
        ok = false;
      } else if (!isProbability(p)) {
        report('probabilities', `probabilities.${name} must be a number in [0, 1], got ${preview(p)}`);
        ok = false;
      } else {
        probabilities[k] = p;
      }
    }
    if (missing.length > 0)
      report(
        'probabilities',
        `probabilities has no ${missing.map((m) => JSON.stringify(m)).join(', ')} (every option needs one: ${options.join(', ')})`,
      );
    const keys = Object.keys(rawP);
    if (keys.length !== options.length || !ok) {
      for (const key of keys) {
        if (!options.includes(key)) {
          report(
            'probabilities',
            `probabilities has ${JSON.stringify(key)}, which is not an option (${options.join(', ')})`,
          );
          ok = false;
        }
      }
    }
  } else {
    report(
      'probabilities',
      rawP === undefined
        ? `probabilities is missing (an object keyed by option or a list aligned with the options)${missingKeyHint(raw, 'probabilities')}`
        : `probabilities must be an object or a list, got ${preview(rawP)}`,
    );
    ok = false;
  }
  if (ok) {
    let sum = 0;
    for (const p of probabilities) sum += p;
    if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) {
      report('probabilities', `probabilities sum to ${formatSum(sum)}, expected 1`);
      ok = false;
    }
  }

  const picked = raw['picked'];
  let pickedIndex = -1;
  if (picked !== undefined && picked !== null) {
    pickedIndex = typeof picked === 'string' ? options.indexOf(picked) : -1;
    if (pickedIndex === -1) {
      report('picked', `picked ${preview(picked)} is not one of the options (${options.join(', ')})`);
      ok = false;
    }
  }
  if (!ok) return null;
  return pickedIndex === -1 ? { kind: 'choice', probabilities } : { kind: 'choice', probabilities, pickedIndex };
}

/** Two decimals, unless rounding would land within the tolerance the sum failed. */
function formatSum(sum: number): string {
  const short = sum.toFixed(2);
  // 1e-9: "1.01" reads as within the tolerance even where the double 1.01 is a hair outside.
  return Math.abs(Number(short) - 1) <= PROBABILITY_SUM_TOLERANCE + 1e-9 ? String(Number(sum.toPrecision(6))) : short;
}

/**
 * A calibration map applied to each decision before it is scored (`--calibration MAP`), by
 * the case's index in the dataset: P(yes) of a yes/no, a choice's probabilities in option
 * order. The file's decisions themselves are never changed.
 */
export interface DecisionRecalibration {
  yesNo(caseIndex: number, probability: number): number;
  choice(caseIndex: number, probabilities: readonly number[]): readonly number[];
}

function recalibrated(result: OfflineResult, i: number, r: DecisionRecalibration | undefined): OfflineResult {
  if (r === undefined) return result;
  const d = result.decision;
  if (d.kind === 'yes_no') return { ...result, decision: { ...d, probability: r.yesNo(i, d.probability) } };
  if (d.kind === 'choice') return { ...result, decision: { ...d, probabilities: r.choice(i, d.probabilities) } };
  return result;
}

/** One results file scored against a dataset, streamed. */
export interface ScoredResults {
  readonly model: string | null;
  readonly lines: number;
  readonly summary: OfflineSummary;
}

/**
 * Streams a results file into the offline summary (constant memory beyond the dataset; no
 * object per line on the fast path). Throws InvalidInputError with every problem of the file.
 */
export async function scoreResults(
  path: string,
  dataset: OfflineDataset,
  options: OfflineAccumulatorOptions = {},
  split: ReadResultsOptions = {},
  recalibration?: DecisionRecalibration,
): Promise<ScoredResults> {
  const acc = createOfflineAccumulator(options);
  const t = caseTableOf(dataset);
  const yesNo = recalibration?.yesNo ?? ((_i: number, p: number) => p);
  const choice = recalibration?.choice ?? ((_i: number, p: readonly number[]) => p);
  const { model, lines } = await streamResults(
    path,
    dataset,
    {
      fast(r) {
        const i = r.index;
        if (r.kind === KIND_YES_NO)
          acc.addYesNo(t.correct[i] === 1, yesNo(i, r.probability), r.costUsd, r.latencyMs, i);
        else if (r.kind === KIND_CHOICE)
          acc.addChoice(t.correct[i]!, choice(i, r.probabilities), r.pickedIndex, r.costUsd, r.latencyMs, i);
        else acc.addScore(t.correct[i]!, r.value, r.costUsd, r.latencyMs);
      },
      slow: (i, result) => acc.add(t.caseAt(i), recalibrated(result, i, recalibration), i),
    },
    split,
  );
  return { model, lines, summary: acc.summarize(t.size) };
}
