/**
 * Reads one model's saved results (spec/offline-scoring.md, "Results file") as a stream,
 * strictly: every violation is a problem naming file, line, case and field; nothing is
 * repaired, clipped or renormalised. Memory stays bounded by the dataset, not the file.
 */
import type { ChoiceDecision, OfflineCase, OfflineDecision, OfflineResult } from '../core/offline-case.js';
import { isFiniteNumber, isNonEmptyString, isProbability, isRecord, preview, type JsonRecord } from '../core/json-value.js';
import { ProblemList } from '../core/offline-problems.js';
import { createOfflineAccumulator, type OfflineAccumulatorOptions, type OfflineSummary } from '../core/offline-summary.js';
import { isBlank, jsonErrorMessage, type OfflineDataset } from './offline-dataset.js';
import { encodeKeys, ByteCursor } from './offline-fast-json.js';
import { readLineBytes } from './read-lines.js';

/** The sum of a choice's probabilities must be within this of 1. */
export const PROBABILITY_SUM_TOLERANCE = 0.01;

export interface ReadResultsSummary {
  /** The model named on every line; null when the file has no results. */
  readonly model: string | null;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Dataset cases without a result. */
  readonly missing: number;
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
): Promise<ReadResultsSummary> {
  const problems = new ProblemList();
  /** Line of the first result of each case: duplicates are errors. Bounded by the dataset. */
  const firstLine = new Map<OfflineCase, number>();
  const fast = new FastResultReader(dataset);
  let model: string | null = null;
  let modelLine = 0;
  let lines = 0;

  const slow = (line: string, lineNumber: number): void => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.add({ file: path, line: lineNumber, message: `not valid JSON (${jsonErrorMessage(err)})` });
      return;
    }
    const before = problems.count;
    let caseId: string | undefined;
    const report = (field: string | undefined, message: string): void =>
      problems.add({ file: path, line: lineNumber, ...(caseId === undefined ? {} : { caseId }), ...(field === undefined ? {} : { field }), message });

    if (!isRecord(value)) {
      report(undefined, `expected a JSON object, got ${preview(value)}`);
      return;
    }
    const rawId = value['case_id'];
    let c: OfflineCase | undefined;
    if (!isNonEmptyString(rawId)) {
      report('case_id', rawId === undefined ? 'case_id is missing' : `case_id must be a non-empty string, got ${preview(rawId)}`);
    } else {
      caseId = rawId;
      c = dataset.byId.get(rawId);
      if (c === undefined) {
        report('case_id', `case_id ${JSON.stringify(rawId)} is not in the dataset ${dataset.path}`);
      } else {
        const first = firstLine.get(c);
        if (first !== undefined) report('case_id', `duplicate result for this case (first on line ${first})`);
        else firstLine.set(c, lineNumber);
      }
    }

    const rawModel = value['model'];
    if (!isNonEmptyString(rawModel)) {
      report('model', rawModel === undefined ? 'model is missing' : `model must be a non-empty string, got ${preview(rawModel)}`);
    } else if (model === null) {
      model = rawModel;
      modelLine = lineNumber;
      fast.setModel(rawModel);
    } else if (rawModel !== model) {
      report('model', `model ${JSON.stringify(rawModel)} differs from ${JSON.stringify(model)} on line ${modelLine} (one results file is one model)`);
    }

    const decision = c === undefined ? null : parseOfflineDecision(value['decision'], c, report);
    const costUsd = optionalNonNegative(value, 'cost_usd', report);
    const latencyMs = optionalNonNegative(value, 'latency_ms', report);
    if (problems.count !== before || c === undefined || decision === null || model === null) return;
    onResult(makeResult(c, model, decision, costUsd, latencyMs), c);
  };

  await readLineBytes(path, (bytes, start, end, lineNumber) => {
    if (isBlankBytes(bytes, start, end)) return;
    lines++;
    // Fast path: a well-formed line of the usual shape, read from the bytes. Anything else,
    // including every invalid line and duplicates, goes the slow way for its messages.
    if (model !== null && fast.read(bytes, start, end)) {
      const c = fast.case!;
      if (!firstLine.has(c)) {
        firstLine.set(c, lineNumber);
        onResult(makeResult(c, model, fast.decision!, fast.costUsd, fast.latencyMs), c);
        return;
      }
    }
    slow(bytes.toString('utf8', start, end), lineNumber);
  });

  problems.throwIfAny();
  return { model, lines, missing: dataset.cases.length - firstLine.size };
}

function makeResult(c: OfflineCase, model: string, decision: OfflineDecision, costUsd: number | undefined, latencyMs: number | undefined): OfflineResult {
  const result: { -readonly [K in keyof OfflineResult]: OfflineResult[K] } = { caseId: c.id, model, decision };
  if (costUsd !== undefined) result.costUsd = costUsd;
  if (latencyMs !== undefined) result.latencyMs = latencyMs;
  return result;
}

const RESULT_KEYS = encodeKeys(['case_id', 'model', 'decision', 'cost_usd', 'latency_ms']);
const K_CASE_ID = 0;
const K_MODEL = 1;
const K_DECISION = 2;
const K_COST = 3;
const K_LATENCY = 4;
const DECISION_KEYS = encodeKeys(['probability', 'probabilities', 'picked', 'value', 'confidence']);
const D_PROBABILITY = 0;
const D_PROBABILITIES = 1;
const D_PICKED = 2;
const D_VALUE = 3;
const D_CONFIDENCE = 4;

/**
 * Reads a valid results line of the usual shape straight from its bytes. `read` returns
 * false (bail out) for anything it does not fully check itself: the caller then parses the
 * line with JSON.parse and the full validation, which words the problems.
 */
export class FastResultReader {
  private readonly cur = new ByteCursor();
  private modelBytes: Uint8Array | null = null;
  private readonly optionBytes = new WeakMap<readonly string[], Uint8Array[]>();
  case: OfflineCase | null = null;
  decision: OfflineDecision | null = null;
  costUsd: number | undefined = undefined;
  latencyMs: number | undefined = undefined;

  constructor(private readonly dataset: OfflineDataset) {}

  /** Lines are only read fast once the model is known (the first line sets it, slowly). */
  setModel(model: string): void {
    this.modelBytes = new TextEncoder().encode(model);
  }

  read(bytes: Buffer, start: number, end: number): boolean {
    const cur = this.cur;
    cur.reset(bytes, start, end);
    this.case = null;
    this.decision = null;
    this.costUsd = undefined;
    this.latencyMs = undefined;
    if (!cur.eat(0x7b) || this.modelBytes === null) return false;
    let seen = 0;
    for (;;) {
      const k = cur.key(RESULT_KEYS);
      if (k === -1 || (seen & (1 << k)) !== 0) return false;
      seen |= 1 << k;
      switch (k) {
        case K_CASE_ID: {
          if (!cur.string() || cur.strEnd === cur.strStart) return false;
          const c = this.dataset.byId.get(cur.stringValue());
          if (c === undefined) return false;
          this.case = c;
          break;
        }
        case K_MODEL:
          if (!cur.string() || !cur.stringIs(this.modelBytes)) return false;
          break;
        case K_DECISION:
          if (this.case === null || !this.readDecision(this.case)) return false;
          break;
        default: {
          const v = cur.number();
          if (!(v >= 0) || v === Infinity) return false;
          if (k === K_COST) this.costUsd = v;
          else this.latencyMs = v;
        }
      }
      if (cur.eat(0x2c)) continue;
      if (!cur.eat(0x7d)) return false;
      break;
    }
    return cur.atEnd() && (seen & 7) === 7;
  }

  private readDecision(c: OfflineCase): boolean {
    const cur = this.cur;
    if (!cur.eat(0x7b)) return false;
    let seen = 0;
    let probability = NaN;
    let value = NaN;
    let confidence: number | undefined;
    let probabilities: number[] | null = null;
    let pickedIndex = -1;
    if (cur.peek() !== 0x7d) {
      for (;;) {
        const k = cur.key(DECISION_KEYS);
        if (k === -1 || (seen & (1 << k)) !== 0) return false;
        seen |= 1 << k;
        switch (k) {
          case D_PROBABILITY:
            probability = cur.number();
            break;
          case D_VALUE:
            value = cur.number();
            break;
          case D_CONFIDENCE:
            if (cur.null()) break;
            confidence = cur.number();
            if (!(confidence >= 0 && confidence <= 1)) return false;
            break;
          case D_PROBABILITIES:
            if (c.kind !== 'choice') return false;
            probabilities = this.readProbabilities(c.options);
            if (probabilities === null) return false;
            break;
          default: {
            if (c.kind !== 'choice') return false;
            if (cur.null()) break;
            if (!cur.string()) return false;
            pickedIndex = cur.stringIndex(this.bytesOf(c.options));
            if (pickedIndex === -1) return false;
          }
        }
        if (cur.eat(0x2c)) continue;
        break;
      }
    }
    if (!cur.eat(0x7d)) return false;
    switch (c.kind) {
      case 'yes_no':
        if (seen !== 1 << D_PROBABILITY || !(probability >= 0 && probability <= 1)) return false;
        this.decision = { kind: 'yes_no', probability };
        return true;
      case 'choice': {
        if (probabilities === null || (seen & ~((1 << D_PROBABILITIES) | (1 << D_PICKED))) !== 0) return false;
        let sum = 0;
        for (const p of probabilities) sum += p;
        if (!(Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE)) return false;
        this.decision = pickedIndex === -1 ? { kind: 'choice', probabilities } : { kind: 'choice', probabilities, pickedIndex };
        return true;
      }
      default:
        if ((seen & ~((1 << D_VALUE) | (1 << D_CONFIDENCE))) !== 0 || !(value >= c.scoreMin && value <= c.scoreMax)) return false;
        this.decision = confidence === undefined ? { kind: 'score', value } : { kind: 'score', value, confidence };
        return true;
    }
  }

  /** A list aligned with the options, or an object with each option exactly once. */
  private readProbabilities(options: readonly string[]): number[] | null {
    const cur = this.cur;
    const n = options.length;
    const out = new Array<number>(n);
    if (cur.eat(0x5b)) {
      for (let k = 0; k < n; k++) {
        if (k > 0 && !cur.eat(0x2c)) return null;
        const p = cur.number();
        if (!(p >= 0 && p <= 1)) return null;
        out[k] = p;
      }
      return cur.eat(0x5d) ? out : null;
    }
    if (!cur.eat(0x7b) || n > 30) return null;
    const names = this.bytesOf(options);
    let filled = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && !cur.eat(0x2c)) return null;
      const k = cur.key(names);
      if (k === -1 || (filled & (1 << k)) !== 0) return null;
      filled |= 1 << k;
      const p = cur.number();
      if (!(p >= 0 && p <= 1)) return null;
      out[k] = p;
    }
    return cur.eat(0x7d) ? out : null;
  }

  private bytesOf(options: readonly string[]): Uint8Array[] {
    let bytes = this.optionBytes.get(options);
    if (bytes === undefined) {
      bytes = encodeKeys(options);
      this.optionBytes.set(options, bytes);
    }
    return bytes;
  }
}

function isBlankBytes(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return c === 0xc2 || c === 0xe2 || c === 0xe3 || c === 0xef ? isBlank(b.toString('utf8', start, end)) : false;
  }
  return true;
}

/** Reads a whole (small) results file into memory: for commands that need several passes. */
export async function loadResults(path: string, dataset: OfflineDataset): Promise<{ readonly model: string | null; readonly results: OfflineResult[] }> {
  const results: OfflineResult[] = [];
  const { model } = await readResults(path, dataset, (r) => results.push(r));
  return { model, results };
}

type Report = (field: string | undefined, message: string) => void;

function optionalNonNegative(value: JsonRecord, key: string, report: Report): number | undefined {
  const v = value[key];
  if (v === undefined || v === null) return undefined;
  if (isFiniteNumber(v) && v >= 0) return v;
  report(key, `${key} must be a finite number >= 0, got ${preview(v)}`);
  return undefined;
}

/** Checks a saved decision against its case, reporting every problem; null when invalid. */
export function parseOfflineDecision(raw: unknown, c: OfflineCase, report: Report): OfflineDecision | null {
  if (!isRecord(raw)) {
    report('decision', raw === undefined ? `decision is missing (${expectedShape(c)})` : `decision must be an object (${expectedShape(c)}), got ${preview(raw)}`);
    return null;
  }
  switch (c.kind) {
    case 'yes_no': {
      const p = raw['probability'];
      if (!isProbability(p)) {
        report('probability', p === undefined ? 'probability is missing (P(yes) in [0, 1])' : `probability must be a number in [0, 1], got ${preview(p)}`);
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
        report('value', v === undefined ? `value is missing (a number in [${c.scoreMin}, ${c.scoreMax}])` : `value must be a finite number, got ${preview(v)}`);
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
      return hasConf ? { kind: 'score', value: v as number, confidence: conf as number } : { kind: 'score', value: v as number };
    }
    default: {
      const never: never = c;
      throw new TypeError(`unexpected case ${preview(never)}`);
    }
  }
}

function expectedShape(c: OfflineCase): string {
  return c.kind === 'yes_no' ? '{"probability": p}' : c.kind === 'choice' ? '{"probabilities": ..., "picked": ...}' : '{"value": v}';
}

function parseChoiceDecision(raw: JsonRecord, options: readonly string[], report: Report): ChoiceDecision | null {
  const rawP = raw['probabilities'];
  let ok = true;
  const probabilities = new Array<number>(options.length);
  if (Array.isArray(rawP)) {
    if (rawP.length !== options.length) {
      report('probabilities', `probabilities lists ${rawP.length} values, expected ${options.length} (one per option: ${options.join(', ')})`);
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
    for (let k = 0; k < options.length; k++) {
      const name = options[k] as string;
      const p = Object.hasOwn(rawP, name) ? rawP[name] : undefined;
      if (p === undefined) {
        report('probabilities', `probabilities has no ${JSON.stringify(name)} (every option needs one)`);
        ok = false;
      } else if (!isProbability(p)) {
        report('probabilities', `probabilities.${name} must be a number in [0, 1], got ${preview(p)}`);
        ok = false;
      } else {
        probabilities[k] = p;
      }
    }
    const keys = Object.keys(rawP);
    if (keys.length !== options.length || !ok) {
      for (const key of keys) {
        if (!options.includes(key)) {
          report('probabilities', `probabilities has ${JSON.stringify(key)}, which is not an option (${options.join(', ')})`);
          ok = false;
        }
      }
    }
  } else {
    report(
      'probabilities',
      rawP === undefined ? 'probabilities is missing (an object keyed by option or a list aligned with the options)' : `probabilities must be an object or a list, got ${preview(rawP)}`,
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

/** One results file scored against a dataset, streamed. */
export interface ScoredResults {
  readonly model: string | null;
  readonly lines: number;
  readonly summary: OfflineSummary;
}

/**
 * Streams a results file into the offline summary (constant memory beyond the dataset).
 * Throws InvalidInputError with every problem of the file.
 */
export async function scoreResults(path: string, dataset: OfflineDataset, options: OfflineAccumulatorOptions = {}): Promise<ScoredResults> {
  const acc = createOfflineAccumulator(options);
  const { model, lines } = await readResults(path, dataset, (r, c) => acc.add(c, r));
  return { model, lines, summary: acc.summarize(dataset.cases.length) };
}
