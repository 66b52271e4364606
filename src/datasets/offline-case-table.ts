/**
 * The cases of an offline dataset stored column by column (typed arrays, ids as bytes), so
 * a million cases take tens of MB and load without an object, a string or a Map entry per
 * case. `OfflineCase` objects are made only when asked for (`caseAt`, `dataset.cases`).
 */
import { isUtf8 } from 'node:buffer';
import type { OfflineCase } from '../core/offline-case.js';
import { ByteKeys } from './offline-byte-keys.js';
import { encodeKeys } from './offline-fast-json.js';

export const KIND_YES_NO = 0;
export const KIND_CHOICE = 1;
export const KIND_SCORE = 2;
const KIND_NAMES = ['yes_no', 'choice', 'score'] as const;

/** Distinct prompts and option lists shared between cases, beyond which they are not shared. */
const MAX_SHARED = 10_000;

/** True when these bytes are ASCII or valid UTF-8 (then they are the UTF-8 of their string). */
export function isCanonicalUtf8(b: Buffer, start: number, end: number, ascii: boolean): boolean {
  return ascii || isUtf8(b.subarray(start, end));
}

export class OfflineCaseTable {
  size = 0;
  /** KIND_YES_NO, KIND_CHOICE or KIND_SCORE. */
  kinds = new Uint8Array(1024);
  /** yes_no: 1 or 0; choice: index of the correct option; score: the correct value. */
  correct = new Float64Array(1024);
  /** choice: index into optionLists. */
  list = new Int32Array(1024);
  scoreMin = new Float64Array(1024);
  scoreMax = new Float64Array(1024);
  /** -1: no prompt; k >= 0: prompts[k]; k <= -2: unsharedPrompts[-2 - k]. */
  prompt = new Int32Array(1024);
  /** Line of the case in its file. */
  line = new Int32Array(1024);
  /** UTF-8 bytes of every id (empty for the rare id that UTF-8 cannot carry, see oddIds). */
  readonly ids = new ByteKeys();
  /** Ids with lone surrogates (only from escapes), which do not survive UTF-8. */
  private oddIds: Map<string, number> | null = null;
  private groups: (string | undefined)[] | null = null;
  private fields: (string | undefined)[] | null = null;
  /** Ids so far strictly ascending by bytes: unique without a hash index. */
  private ascending = true;

  private readonly prompts: string[] = [];
  private readonly unsharedPrompts: string[] = [];
  private readonly promptKeys = new ByteKeys();

  readonly optionLists: (readonly string[])[] = [];
  /** UTF-8 bytes of each option of each list. */
  readonly optionBytes: Uint8Array[][] = [];
  private readonly listByCanonical = new Map<string, number>();
  /** Raw JSON of an options array -> list, so a repeated list is not decoded again. */
  private readonly segmentKeys = new ByteKeys();
  private readonly segmentList: number[] = [];

  /**
   * The case whose id is `b[start, end)` (UTF-8), or -1. Used while loading: ids that keep
   * ascending need no index; the first one that does not builds it.
   */
  findId(b: Uint8Array, start: number, end: number): number {
    if (this.ascending) {
      if (this.size === 0 || this.ids.compare(this.size - 1, b, start, end) < 0) return -1;
      this.ascending = false;
    }
    return this.ids.indexOf(b, start, end);
  }

  /** Index of the case with this id, or -1; `guess` is tried first (see indexOfIdBytes). */
  indexOfId(id: string, guess = -1): number {
    const b = Buffer.from(id, 'utf8');
    if (b.toString('utf8') !== id) return this.oddIds?.get(id) ?? -1;
    return this.indexOfIdBytes(b, 0, b.length, guess);
  }

  /** findId for an id string. */
  findIdString(id: string): number {
    const b = Buffer.from(id, 'utf8');
    if (b.toString('utf8') !== id) return this.oddIds?.get(id) ?? -1;
    return this.findId(b, 0, b.length);
  }

  /** Index of the case with id bytes `b[start, end)`, trying `guess` first (results usually follow the dataset's order). */
  indexOfIdBytes(b: Uint8Array, start: number, end: number, guess: number): number {
    if (guess >= 0 && guess < this.size && this.ids.equals(guess, b, start, end)) return guess;
    return this.ids.indexOf(b, start, end);
  }

  idOf(i: number): string {
    return this.oddIds !== null && this.ids.view(i).length === 0 ? this.oddIdOf(i) : this.ids.toString(i);
  }

  private oddIdOf(i: number): string {
    for (const [id, k] of this.oddIds!) if (k === i) return id;
    return '';
  }

  /** Prompt index for `push`: shares prompts with equal bytes. */
  promptOf(b: Buffer, start: number, end: number, ascii: boolean): number {
    const k = this.promptKeys.indexOf(b, start, end);
    if (k !== -1) return k;
    const text = b.toString(ascii ? 'latin1' : 'utf8', start, end);
    if (this.promptKeys.size < MAX_SHARED) {
      this.prompts.push(text);
      return this.promptKeys.add(b, start, end);
    }
    this.unsharedPrompts.push(text);
    return -1 - this.unsharedPrompts.length;
  }

  /** The list of a raw options array `b[start, end)` seen before, or -1. */
  listOfSegment(b: Uint8Array, start: number, end: number): number {
    const k = this.segmentKeys.indexOf(b, start, end);
    return k === -1 ? -1 : this.segmentList[k]!;
  }

  /** List index of these options (checked by the caller), shared with an equal earlier list. */
  listOf(options: readonly string[], segment?: { readonly b: Uint8Array; readonly start: number; readonly end: number }): number {
    const key = options.join('\u0000');
    let list = this.listByCanonical.get(key);
    if (list === undefined) {
      list = this.optionLists.length;
      this.optionLists.push(options);
      this.optionBytes.push(encodeKeys(options));
      if (this.listByCanonical.size < MAX_SHARED) this.listByCanonical.set(key, list);
    }
    if (segment !== undefined && this.segmentKeys.size < MAX_SHARED) {
      this.segmentKeys.add(segment.b, segment.start, segment.end);
      this.segmentList.push(list);
    }
    return list;
  }

  /** Appends a checked case whose id is not in the table yet (see findId). */
  push(
    b: Uint8Array,
    idStart: number,
    idEnd: number,
    kind: number,
    correct: number,
    list: number,
    min: number,
    max: number,
    prompt: number,
    group: string | undefined,
    field: string | undefined,
    line: number,
  ): void {
    const i = this.size;
    if (i === this.kinds.length) this.grow();
    this.ids.add(b, idStart, idEnd);
    this.kinds[i] = kind;
    this.correct[i] = correct;
    this.list[i] = list;
    this.scoreMin[i] = min;
    this.scoreMax[i] = max;
    this.prompt[i] = prompt;
    this.line[i] = line;
    if (group !== undefined || field !== undefined) {
      this.groups ??= [];
      this.fields ??= [];
      this.groups[i] = group;
      this.fields[i] = field;
    }
    this.size = i + 1;
  }

  /** Appends a case checked by the slow path (its id is not in the table yet). */
  pushCase(c: OfflineCase, line: number): void {
    let id = Buffer.from(c.id, 'utf8');
    if (id.toString('utf8') !== c.id) {
      (this.oddIds ??= new Map()).set(c.id, this.size);
      this.ascending = false;
      id = Buffer.alloc(0);
    }
    let prompt = -1;
    if (c.prompt !== undefined) {
      const p = Buffer.from(c.prompt, 'utf8');
      prompt = p.toString('utf8') === c.prompt ? this.promptOf(p, 0, p.length, false) : this.unsharedPrompt(c.prompt);
    }
    const kind = c.kind === 'yes_no' ? KIND_YES_NO : c.kind === 'choice' ? KIND_CHOICE : KIND_SCORE;
    const correct = c.kind === 'yes_no' ? (c.correct ? 1 : 0) : c.kind === 'choice' ? c.correctIndex : c.correct;
    const list = c.kind === 'choice' ? this.listOf(c.options) : -1;
    const min = c.kind === 'score' ? c.scoreMin : 0;
    const max = c.kind === 'score' ? c.scoreMax : 0;
    // The caller checked the id is new; findId needs to know whether ids still ascend.
    if (this.ascending && this.size > 0 && this.ids.compare(this.size - 1, id, 0, id.length) >= 0) this.ascending = false;
    this.push(id, 0, id.length, kind, correct, list, min, max, prompt, c.group, c.field, line);
  }

  private unsharedPrompt(text: string): number {
    this.unsharedPrompts.push(text);
    return -1 - this.unsharedPrompts.length;
  }

  /** Case i as an object (a new one every call). */
  caseAt(i: number): OfflineCase {
    const id = this.idOf(i);
    const base: { prompt?: string; group?: string; field?: string } = {};
    const p = this.prompt[i]!;
    if (p !== -1) base.prompt = p >= 0 ? this.prompts[p]! : this.unsharedPrompts[-2 - p]!;
    const group = this.groups?.[i];
    const field = this.fields?.[i];
    if (group !== undefined) base.group = group;
    if (field !== undefined) base.field = field;
    const kind = KIND_NAMES[this.kinds[i]!]!;
    if (kind === 'yes_no') return { id, kind, correct: this.correct[i] === 1, ...base };
    if (kind === 'choice') {
      const options = this.optionLists[this.list[i]!]!;
      const correctIndex = this.correct[i]!;
      return { id, kind, options, correct: options[correctIndex]!, correctIndex, ...base };
    }
    return { id, kind, scoreMin: this.scoreMin[i]!, scoreMax: this.scoreMax[i]!, correct: this.correct[i]!, ...base };
  }

  /** Number of cases of each kind. */
  countKinds(): [yesNo: number, choice: number, score: number] {
    const out: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < this.size; i++) out[this.kinds[i] as 0 | 1 | 2]++;
    return out;
  }

  private grow(): void {
    const n = this.kinds.length * 2;
    const kinds = new Uint8Array(n);
    kinds.set(this.kinds);
    this.kinds = kinds;
    this.correct = growF64(this.correct, n);
    this.scoreMin = growF64(this.scoreMin, n);
    this.scoreMax = growF64(this.scoreMax, n);
    this.list = growI32(this.list, n);
    this.prompt = growI32(this.prompt, n);
    this.line = growI32(this.line, n);
  }
}

function growF64(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
