/**
 * The dataset-free half of reading a results file, for a second thread: each line's syntax
 * and the checks that do not need its case, left in compact typed arrays (a batch). The main
 * thread then matches the ids against the dataset, checks the decision against its case and
 * accumulates (offline-results.ts). A line this reader does not fully check is marked slow,
 * and the main thread reads it again from the file and takes the usual slow path, so every
 * message stays the same.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { MAX_LINE_BYTES } from '../../read-lines.js';
import { MAX_RESULT_MEASURE } from '../../../core/offline/case.js';
import { isCanonicalUtf8 } from './case-table.js';
import { isLineSpace } from '../dataset.js';
import { ByteCursor, encodeKeys } from './fast-json.js';

/** Line status in a batch. */
export const LINE_BLANK = 0;
export const LINE_FAST = 1;
export const LINE_SLOW = 2;
/** The length recorded for a line longer than MAX_LINE_BYTES (see ResultPreparser.addTooLong). */
export const TOO_LONG = -1;

/** Decision shapes of a fast line. */
export const SHAPE_PROBABILITY = 1;
export const SHAPE_LIST = 2;
export const SHAPE_OBJECT = 3;
export const SHAPE_VALUE = 4;

/** Lines a batch holds at most. */
const BATCH_LINES = 8192;
/** Probabilities a batch holds at most; a line with more than MAX_LINE_PROBS is slow. */
const BATCH_PROBS = BATCH_LINES * 3;
const MAX_LINE_PROBS = 64;
/** Bytes of ids, option names and picked options a batch holds (a line uses fewer than its length). */
const BATCH_POOL = BATCH_LINES * 48;

/**
 * One batch of consecutive lines: views over one ArrayBuffer, so a batch moves between
 * threads without a copy and is reused (the reader's reads go back to the worker).
 */
export class ResultBatch {
  readonly buffer: ArrayBuffer;
  /** Number of lines (blank ones included, so line numbers follow). */
  count = 0;
  /** LINE_BLANK, LINE_FAST or LINE_SLOW. */
  readonly status: Uint8Array;
  readonly shape: Uint8Array;
  /** Where the line is in the file (bytes; no line end): for the slow path. */
  readonly lineStart: Float64Array;
  readonly lineLength: Int32Array;
  /** probability (SHAPE_PROBABILITY) or value (SHAPE_VALUE). */
  readonly num: Float64Array;
  /** NaN when absent or null. */
  readonly confidence: Float64Array;
  readonly cost: Float64Array;
  readonly latency: Float64Array;
  /** case_id bytes in pool (or in the line, see ResultPreparser's copyIds). */
  readonly idStart: Int32Array;
  readonly idEnd: Int32Array;
  /** picked bytes in pool; -1 when absent or null. */
  readonly pickStart: Int32Array;
  readonly pickEnd: Int32Array;
  /** Probabilities of the line: probs[probStart, probStart + probCount). */
  readonly probStart: Int32Array;
  readonly probCount: Int32Array;
  readonly probs: Float64Array;
  /** SHAPE_OBJECT: each probability's key bytes in pool. */
  readonly keyStart: Int32Array;
  readonly keyEnd: Int32Array;
  readonly pool: Uint8Array;
  /** Used sizes while filling. */
  nProbs = 0;
  nPool = 0;

  constructor(buffer?: ArrayBuffer) {
    const L = BATCH_LINES;
    const P = BATCH_PROBS;
    const size = (5 * L + P) * 8 + (7 * L + 2 * P) * 4 + 2 * L + BATCH_POOL;
    this.buffer = buffer ?? new ArrayBuffer(size);
    let o = 0;
    const f64 = (n: number): Float64Array => {
      const a = new Float64Array(this.buffer, o, n);
      o += n * 8;
      return a;
    };
    const i32 = (n: number): Int32Array => {
      const a = new Int32Array(this.buffer, o, n);
      o += n * 4;
      return a;
    };
    const u8 = (n: number): Uint8Array => {
      const a = new Uint8Array(this.buffer, o, n);
      o += n;
      return a;
    };
    this.lineStart = f64(L);
    this.num = f64(L);
    this.confidence = f64(L);
    this.cost = f64(L);
    this.latency = f64(L);
    this.probs = f64(P);
    this.lineLength = i32(L);
    this.idStart = i32(L);
    this.idEnd = i32(L);
    this.pickStart = i32(L);
    this.pickEnd = i32(L);
    this.probStart = i32(L);
    this.probCount = i32(L);
    this.keyStart = i32(P);
    this.keyEnd = i32(P);
    this.status = u8(L);
    this.shape = u8(L);
    this.pool = u8(BATCH_POOL);
  }

  /** Room for one more line of `bytes` bytes. */
  hasRoom(bytes: number): boolean {
    return (
      this.count < BATCH_LINES &&
      this.nProbs + MAX_LINE_PROBS <= BATCH_PROBS &&
      this.nPool + Math.min(bytes, BATCH_POOL) <= BATCH_POOL
    );
  }

  clear(): void {
    this.count = 0;
    this.nProbs = 0;
    this.nPool = 0;
  }
}

/** The keys of a results line and of its decision, as the byte reader looks them up. */
export const RESULT_KEYS = encodeKeys(['case_id', 'model', 'decision', 'cost_usd', 'latency_ms']);
export const K_CASE_ID = 0;
export const K_MODEL = 1;
export const K_DECISION = 2;
export const K_COST = 3;
export const K_LATENCY = 4;
export const DECISION_KEYS = encodeKeys(['probability', 'probabilities', 'picked', 'value', 'confidence']);
export const D_PROBABILITY = 0;
export const D_PROBABILITIES = 1;
export const D_PICKED = 2;
export const D_VALUE = 3;
export const D_CONFIDENCE = 4;

/**
 * Fills batches from lines; `model` is the model of the first line read fast, and later
 * lines are fast only with the same model bytes.
 */
export class ResultPreparser {
  private readonly cur = new ByteCursor();
  private modelBytes: Uint8Array | null = null;
  /** The model every fast line names (null until the first fast line). */
  model: string | null = null;

  /**
   * `copyIds` false: a line's idStart/idEnd point into the line's own bytes instead of the
   * pool (no copy; for a reader that checks each line before its bytes are reused).
   */
  constructor(private readonly copyIds = true) {}

  /** Adds the line `bytes[start, end)` found at file offset `fileOffset` to `batch` (which has room). */
  add(batch: ResultBatch, bytes: Buffer, start: number, end: number, fileOffset: number): void {
    const k = batch.count++;
    batch.lineStart[k] = fileOffset;
    batch.lineLength[k] = end - start;
    if (isBlankBytes(bytes, start, end)) {
      batch.status[k] = LINE_BLANK;
      return;
    }
    const probs0 = batch.nProbs;
    const pool0 = batch.nPool;
    if (end - start <= batch.pool.length && this.read(batch, k, bytes, start, end)) {
      batch.status[k] = LINE_FAST;
    } else {
      batch.status[k] = LINE_SLOW;
      batch.nProbs = probs0;
      batch.nPool = pool0;
    }
  }

  /**
   * Adds a line longer than MAX_LINE_BYTES, found at `fileOffset`, without its bytes: the
   * reader reports it (its length -1 marks it), and nothing holds it whole.
   */
  addTooLong(batch: ResultBatch, fileOffset: number): void {
    const k = batch.count++;
    batch.lineStart[k] = fileOffset;
    batch.lineLength[k] = TOO_LONG;
    batch.status[k] = LINE_SLOW;
  }

  private copy(batch: ResultBatch, b: Buffer, start: number, end: number): number {
    const at = batch.nPool;
    const pool = batch.pool;
    for (let i = start; i < end; i++) pool[at + i - start] = b[i]!;
    batch.nPool = at + end - start;
    return at;
  }

  private read(batch: ResultBatch, k: number, bytes: Buffer, start: number, end: number): boolean {
    const cur = this.cur;
    cur.reset(bytes, start, end);
    batch.cost[k] = NaN;
    batch.latency[k] = NaN;
    if (!cur.eat(0x7b)) return false;
    let seen = 0;
    let modelStart = -1;
    let modelEnd = -1;
    for (;;) {
      const key = cur.key(RESULT_KEYS);
      if (key === -1 || (seen & (1 << key)) !== 0) return false;
      seen |= 1 << key;
      switch (key) {
        case K_CASE_ID: {
          if (
            !cur.string() ||
            cur.strEnd === cur.strStart ||
            !isCanonicalUtf8(bytes, cur.strStart, cur.strEnd, cur.strAscii)
          )
            return false;
          if (this.copyIds) {
            batch.idStart[k] = this.copy(batch, bytes, cur.strStart, cur.strEnd);
            batch.idEnd[k] = batch.nPool;
          } else {
            batch.idStart[k] = cur.strStart;
            batch.idEnd[k] = cur.strEnd;
          }
          break;
        }
        case K_MODEL:
          if (!cur.string() || cur.strEnd === cur.strStart) return false;
          if (this.modelBytes !== null) {
            if (!cur.stringIs(this.modelBytes)) return false;
          } else {
            if (!isCanonicalUtf8(bytes, cur.strStart, cur.strEnd, cur.strAscii)) return false;
            modelStart = cur.strStart;
            modelEnd = cur.strEnd;
          }
          break;
        case K_DECISION:
          if (!this.readDecision(batch, k)) return false;
          break;
        default: {
          const v = cur.number();
          // Out of range (or bad syntax, NaN): the slow path words the problem.
          if (!(v >= 0 && v <= MAX_RESULT_MEASURE)) return false;
          if (key === K_COST) batch.cost[k] = v;
          else batch.latency[k] = v;
        }
      }
      if (cur.eat(0x2c)) continue;
      if (!cur.eat(0x7d)) return false;
      break;
    }
    if (!cur.atEnd() || (seen & 7) !== 7) return false;
    if (modelStart !== -1) {
      // A copy: `bytes` is a read buffer that is reused for the next lines.
      this.modelBytes = Uint8Array.prototype.slice.call(bytes, modelStart, modelEnd);
      this.model = bytes.toString('utf8', modelStart, modelEnd);
    }
    return true;
  }

  private readDecision(batch: ResultBatch, k: number): boolean {
    const cur = this.cur;
    if (!cur.eat(0x7b)) return false;
    let seen = 0;
    let num = NaN;
    let confidence = NaN;
    let shape = 0;
    batch.pickStart[k] = -1;
    batch.pickEnd[k] = -1;
    if (cur.peek() !== 0x7d) {
      for (;;) {
        const key = cur.key(DECISION_KEYS);
        if (key === -1 || (seen & (1 << key)) !== 0) return false;
        seen |= 1 << key;
        switch (key) {
          case D_PROBABILITY:
          case D_VALUE:
            num = cur.number();
            break;
          case D_CONFIDENCE:
            if (cur.null()) break;
            confidence = cur.number();
            if (!(confidence >= 0 && confidence <= 1)) return false;
            break;
          case D_PROBABILITIES:
            shape = this.readProbabilities(batch, k);
            if (shape === 0) return false;
            break;
          default: {
            if (cur.null()) break;
            if (!cur.string()) return false;
            const at = this.copy(batch, cur.buf, cur.strStart, cur.strEnd);
            batch.pickStart[k] = at;
            batch.pickEnd[k] = batch.nPool;
          }
        }
        if (cur.eat(0x2c)) continue;
        break;
      }
    }
    if (!cur.eat(0x7d)) return false;
    if (seen === 1 << D_PROBABILITY) {
      if (!(num >= 0 && num <= 1)) return false;
      shape = SHAPE_PROBABILITY;
    } else if ((seen & (1 << D_PROBABILITIES)) !== 0) {
      if ((seen & ~((1 << D_PROBABILITIES) | (1 << D_PICKED))) !== 0) return false;
    } else if ((seen & (1 << D_VALUE)) !== 0 && (seen & ~((1 << D_VALUE) | (1 << D_CONFIDENCE))) === 0) {
      // The range is the case's: checked by the main thread; NaN (bad syntax) fails there.
      if (!Number.isFinite(num)) return false;
      shape = SHAPE_VALUE;
    } else return false;
    batch.shape[k] = shape;
    batch.num[k] = num;
    batch.confidence[k] = confidence;
    return true;
  }

  /** A list, or an object keyed by (escape-free) names; each value in [0, 1]. The shape, or 0 to bail out. */
  private readProbabilities(batch: ResultBatch, k: number): number {
    const cur = this.cur;
    const probs = batch.probs;
    const at = batch.nProbs;
    let n = 0;
    let shape: number;
    if (cur.eat(0x5b)) {
      shape = SHAPE_LIST;
      if (cur.peek() !== 0x5d) {
        for (;;) {
          if (n === MAX_LINE_PROBS) return 0;
          const p = cur.number();
          if (!(p >= 0 && p <= 1)) return 0;
          probs[at + n++] = p;
          if (cur.eat(0x2c)) continue;
          break;
        }
      }
      if (!cur.eat(0x5d)) return 0;
    } else if (cur.eat(0x7b)) {
      shape = SHAPE_OBJECT;
      if (cur.peek() !== 0x7d) {
        for (;;) {
          if (n === MAX_LINE_PROBS || !cur.string() || !cur.eat(0x3a)) return 0;
          const s = this.copy(batch, cur.buf, cur.strStart, cur.strEnd);
          batch.keyStart[at + n] = s;
          batch.keyEnd[at + n] = batch.nPool;
          const p = cur.number();
          if (!(p >= 0 && p <= 1)) return 0;
          probs[at + n++] = p;
          if (cur.eat(0x2c)) continue;
          break;
        }
      }
      if (!cur.eat(0x7d)) return 0;
    } else return 0;
    batch.probStart[k] = at;
    batch.probCount[k] = n;
    batch.nProbs = at + n;
    return shape;
  }
}

/** True for a line of only white space (as isBlank says of its text). */
export function isBlankBytes(b: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isLineSpace(b[i]!)) return false;
  return true;
}

const LF = 0x0a;
const CR = 0x0d;
const indexOfByte = Uint8Array.prototype.indexOf;
const READ_BYTES = 1 << 20;

/**
 * Reads the lines of a plain file from byte `from` (the start of a line, after any byte order
 * mark) to its end into batches: `emit(batch)` is called for each full batch and the last;
 * `nextBatch()` gives an empty one (a reused one when the reader has given one back).
 */
export function preparseResultLines(
  path: string,
  from: number,
  emit: (batch: ResultBatch, last: boolean, model: string | null) => void,
  nextBatch: () => ResultBatch,
): void {
  const fd = openSync(path, 'r');
  const p = new ResultPreparser();
  let batch = nextBatch();
  const line = (buf: Buffer, start: number, end: number, fileOffset: number): void => {
    if (end > start && buf[end - 1] === CR) end--;
    const long = end - start > MAX_LINE_BYTES;
    if (!batch.hasRoom(long ? 0 : end - start)) {
      emit(batch, false, p.model);
      batch = nextBatch();
    }
    if (long) p.addTooLong(batch, fileOffset);
    else p.add(batch, buf, start, end, fileOffset);
  };
  try {
    let buf = Buffer.allocUnsafeSlow(READ_BYTES);
    let carry = 0;
    /** File offset of buf[0]. */
    let base = from;
    for (;;) {
      if (carry > MAX_LINE_BYTES) {
        if (!batch.hasRoom(0)) {
          emit(batch, false, p.model);
          batch = nextBatch();
        }
        p.addTooLong(batch, base);
        const next = offsetAfterLine(fd, buf, base + carry);
        carry = 0;
        if (next === -1) break;
        base = next;
        continue;
      }
      if (carry === buf.length) {
        const grown = Buffer.allocUnsafeSlow(buf.length * 2);
        buf.copy(grown, 0, 0, carry);
        buf = grown;
      }
      const n = readSync(fd, buf, carry, buf.length - carry, base + carry);
      if (n === 0) break;
      const end = carry + n;
      const view = end === buf.length ? buf : buf.subarray(0, end);
      let start = 0;
      let nl = indexOfByte.call(view, LF, 0);
      while (nl !== -1) {
        line(buf, start, nl, base + start);
        start = nl + 1;
        nl = indexOfByte.call(view, LF, start);
      }
      buf.copy(buf, 0, start, end);
      carry = end - start;
      base += start;
    }
    if (carry > MAX_LINE_BYTES) {
      if (!batch.hasRoom(0)) {
        emit(batch, false, p.model);
        batch = nextBatch();
      }
      p.addTooLong(batch, base);
    } else if (carry > 0) line(buf, 0, carry, base);
  } finally {
    closeSync(fd);
  }
  emit(batch, true, p.model);
}

/** The file offset just after the next newline at or after `from`, or -1 at the end of the file. */
function offsetAfterLine(fd: number, buf: Buffer, from: number): number {
  for (let pos = from; ;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) return -1;
    const nl = indexOfByte.call(n === buf.length ? buf : buf.subarray(0, n), LF, 0);
    if (nl !== -1) return pos + nl + 1;
    pos += n;
  }
}
