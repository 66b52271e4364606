/**
 * The fast path of reading a results file: lines of the usual shape read from their bytes
 * (by this thread's ResultPreparser, or the worker's batches) and checked against their
 * case with no object per line. Every line it cannot take exactly (invalid, unusual,
 * a duplicate) goes to the strict loader (`../results.ts`) for its messages.
 */
import type { OfflineDecision, OfflineResult } from '../../../core/offline/case.js';
import { PROBABILITY_SUM_TOLERANCE } from '../../../core/question.js';
import { lineTooLong, readLineBytes, utf8Text } from '../../read-lines.js';
import { KIND_CHOICE, KIND_YES_NO, type OfflineCaseTable } from './case-table.js';
import {
  LINE_BLANK,
  LINE_FAST,
  LINE_SLOW,
  TOO_LONG,
  ResultBatch,
  ResultPreparser,
  SHAPE_LIST,
  SHAPE_OBJECT,
  SHAPE_PROBABILITY,
  SHAPE_VALUE,
} from './results-preparse.js';
import type { ResultsSplit } from './results-split.js';

/** A result object with only the fields it has. */
export function makeResult(
  caseId: string,
  model: string,
  decision: OfflineDecision,
  costUsd: number | undefined,
  latencyMs: number | undefined,
): OfflineResult {
  const result: { -readonly [K in keyof OfflineResult]: OfflineResult[K] } = { caseId, model, decision };
  if (costUsd !== undefined) result.costUsd = costUsd;
  if (latencyMs !== undefined) result.latencyMs = latencyMs;
  return result;
}

/** The values of the line read fast last (no object per line), for the sink. */
export class FastResult {
  model = '';
  /** Case index in the table. */
  index = -1;
  kind = -1;
  /** yes_no: P(yes). */
  probability = NaN;
  /** choice: aligned with the options (valid until the next line); picked option or -1. */
  probabilities: number[] = [];
  pickedIndex = -1;
  /** score: the value and the confidence (NaN: none). */
  value = NaN;
  confidence = NaN;
  /** NaN when the line has none. */
  costUsd = NaN;
  latencyMs = NaN;

  constructor(private readonly table: OfflineCaseTable) {}

  /** The line read last, as a result object (its own copy of the probabilities). */
  result(): OfflineResult {
    let decision: OfflineDecision;
    if (this.kind === KIND_YES_NO) decision = { kind: 'yes_no', probability: this.probability };
    else if (this.kind === KIND_CHOICE) {
      const probabilities = this.probabilities.slice();
      decision =
        this.pickedIndex === -1
          ? { kind: 'choice', probabilities }
          : { kind: 'choice', probabilities, pickedIndex: this.pickedIndex };
    } else
      decision =
        this.confidence === this.confidence
          ? { kind: 'score', value: this.value, confidence: this.confidence }
          : { kind: 'score', value: this.value };
    const costUsd = this.costUsd === this.costUsd ? this.costUsd : undefined;
    const latencyMs = this.latencyMs === this.latencyMs ? this.latencyMs : undefined;
    return makeResult(this.table.idOf(this.index), this.model, decision, costUsd, latencyMs);
  }
}

/** What reading one results file has found so far, shared by the strict checks and the fast path. */
export class ResultsReadState {
  /** The model named on every line so far (null: none yet), and the line that named it first. */
  model: string | null = null;
  modelLine = 0;
  /** Non-blank lines (or Parquet rows) read. */
  lines = 0;
  /** Cases with a result. */
  seen = 0;
  /** Line of the first result of each case (0: none yet): duplicates are errors. */
  readonly firstLine: Int32Array;
  /**
   * The values of the line read fast last. Its `index` is also where the next line's case is
   * looked for first (results usually follow the dataset's order).
   */
  readonly fast: FastResult;

  constructor(readonly table: OfflineCaseTable) {
    this.firstLine = new Int32Array(table.size);
    this.fast = new FastResult(table);
  }

  /** The first model named, on `line`. */
  setModel(model: string, line: number): void {
    this.model = model;
    this.modelLine = line;
    this.fast.model = model;
  }
}

/** A line the fast path gives up on, with its text, for the strict loader. */
export type SlowLine = (line: string | null, lineNumber: number) => void;

/**
 * Reads the lines of a plain or gzipped results file: this thread reads the file (or, with
 * `split`, its head), the worker's batches give the rest. Lines of the usual shape go to
 * `onFast`, every other non-blank line to `slow`.
 */
export async function readResultLines(
  path: string,
  split: ResultsSplit | null,
  state: ResultsReadState,
  onFast: (r: FastResult) => void,
  slow: SlowLine,
): Promise<void> {
  const lines = new FastResultLines(state, onFast);
  /** This thread's lines go through the same byte reader as the worker's, one line at a time. */
  const preparser = new ResultPreparser(false);
  const one = new ResultBatch();
  const onLine = (bytes: Buffer, start: number, end: number, lineNumber: number): void => {
    // Fast path: a well-formed line of the usual shape, read from the bytes. Anything else,
    // including every invalid line and duplicates, goes the slow way for its messages.
    one.clear();
    preparser.add(one, bytes, start, end, 0);
    const status = one.status[0];
    if (status === LINE_BLANK) return;
    state.lines++;
    if (status === LINE_FAST && lines.take(one, 0, preparser.model, lineNumber, bytes)) return;
    slow(utf8Text(bytes, start, end), lineNumber);
  };
  if (split === null) {
    await readLineBytes(path, onLine);
    return;
  }
  try {
    let lineNumber = split.from === 0 ? 0 : await readLineBytes(path, onLine, { endByte: split.from });
    for (;;) {
      const { batch, last, model: batchModel } = await split.next();
      for (let k = 0; k < batch.count; k++) {
        lineNumber++;
        const status = batch.status[k]!;
        if (status === LINE_FAST || status === LINE_SLOW) {
          if (batch.lineLength[k] === TOO_LONG) throw lineTooLong(path, lineNumber);
          state.lines++;
          if (status === LINE_SLOW || !lines.take(batch, k, batchModel, lineNumber, batch.pool))
            slow(split.lineText(batch.lineStart[k]!, batch.lineLength[k]!), lineNumber);
        }
      }
      split.giveBack(batch);
      if (last) break;
    }
  } finally {
    await split.close();
  }
}

/** Takes pre-parsed lines whose values fit their case, into `state.fast` and on to `onFast`. */
class FastResultLines {
  /** Scratch probabilities in option order, one array per number of options. */
  private readonly scratch: number[][] = [];

  constructor(
    private readonly state: ResultsReadState,
    private readonly onFast: (r: FastResult) => void,
  ) {}

  /**
   * A line pre-parsed by ResultPreparser (this thread's or the worker's): the checks that
   * need its case, then `onFast`; false when the line needs the slow path. `idBytes` holds
   * the case id (the batch's pool, or the line's bytes). Case ids are
   * matched first against the case after the previous line's (results usually follow the
   * dataset's order), else by hash.
   */
  take(b: ResultBatch, k: number, batchModel: string | null, lineNumber: number, idBytes: Uint8Array): boolean {
    const state = this.state;
    const { table, firstLine, fast } = state;
    if (batchModel === null) return false;
    if (state.model === null) state.setModel(batchModel, lineNumber);
    else if (state.model !== batchModel) return false;
    const index = table.indexOfIdBytes(idBytes, b.idStart[k]!, b.idEnd[k]!, fast.index + 1);
    if (index === -1 || firstLine[index] !== 0) return false;
    const kind = table.kinds[index]!;
    const shape = b.shape[k]!;
    if (kind === KIND_YES_NO) {
      if (shape !== SHAPE_PROBABILITY) return false;
      fast.probability = b.num[k]!;
    } else if (kind === KIND_CHOICE) {
      if (shape !== SHAPE_LIST && shape !== SHAPE_OBJECT) return false;
      if (!this.takeChoice(b, k, index, shape)) return false;
    } else {
      const v = b.num[k]!;
      if (shape !== SHAPE_VALUE || !(v >= table.scoreMin(index) && v <= table.scoreMax(index))) return false;
      fast.value = v;
      fast.confidence = b.confidence[k]!;
    }
    fast.index = index;
    fast.kind = kind;
    fast.costUsd = b.cost[k]!;
    fast.latencyMs = b.latency[k]!;
    firstLine[index] = lineNumber;
    state.seen++;
    this.onFast(fast);
    return true;
  }

  /** A choice line's probabilities in option order (a list, or an object keyed by option) and its pick. */
  private takeChoice(b: ResultBatch, k: number, index: number, shape: number): boolean {
    const { table, fast } = this.state;
    const names = table.optionBytes[table.aux[index]!]!;
    const n = names.length;
    if (b.probCount[k] !== n) return false;
    let out = this.scratch[n];
    if (out === undefined) out = this.scratch[n] = new Array<number>(n).fill(0);
    const p0 = b.probStart[k]!;
    if (shape === SHAPE_LIST) {
      for (let j = 0; j < n; j++) out[j] = b.probs[p0 + j]!;
    } else {
      if (n > 30) return false;
      let filled = 0;
      for (let j = 0; j < n; j++) {
        const o = indexOfBytes(names, b.pool, b.keyStart[p0 + j]!, b.keyEnd[p0 + j]!);
        if (o === -1 || (filled & (1 << o)) !== 0) return false;
        filled |= 1 << o;
        out[o] = b.probs[p0 + j]!;
      }
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += out[j]!;
    if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) return false;
    let picked = -1;
    const ps = b.pickStart[k]!;
    if (ps !== -1) {
      picked = indexOfBytes(names, b.pool, ps, b.pickEnd[k]!);
      if (picked === -1) return false;
    }
    fast.probabilities = out;
    fast.pickedIndex = picked;
    return true;
  }
}

/** Index of the bytes `b[start, end)` among `names`, or -1. */
function indexOfBytes(names: readonly Uint8Array[], b: Uint8Array, start: number, end: number): number {
  const len = end - start;
  outer: for (let o = 0; o < names.length; o++) {
    const name = names[o]!;
    if (name.length !== len) continue;
    for (let i = 0; i < len; i++) if (name[i] !== b[start + i]) continue outer;
    return o;
  }
  return -1;
}
