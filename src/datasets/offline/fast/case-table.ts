/**
 * The cases of an offline dataset stored column by column (typed arrays, ids as bytes), so
 * a million cases take tens of MB and load without an object, a string or a Map entry per
 * case. `OfflineCase` objects are made only when asked for (`caseAt`, `dataset.cases`).
 */
import { isUtf8 } from 'node:buffer';
import type { OfflineCase } from '../../../core/offline/case.js';
import { ByteKeys } from './byte-keys.js';
import { encodeKeys } from './fast-json.js';

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
  kinds: Uint8Array<ArrayBuffer>;
  /** yes_no: 1 or 0; choice: index of the correct option; score: the correct value. */
  correct: Float64Array<ArrayBuffer>;
  /** choice: index into optionLists; score: index into ranges (min at 2k, max at 2k + 1). */
  aux: Int32Array<ArrayBuffer>;
  /** -1: no prompt; k >= 0: prompts[k]; k <= -2: unsharedPrompts[-2 - k]. */
  prompt: Int32Array<ArrayBuffer>;
  /** Line of the case in its file. */
  line: Int32Array<ArrayBuffer>;
  /** UTF-8 bytes of every id (empty for the rare id that UTF-8 cannot carry, see oddIds). */
  readonly ids: ByteKeys;
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

  /** Score ranges, shared: [min0, max0, min1, max1, ...]. */
  readonly ranges: number[] = [];
  private lastRange = -1;
  private readonly rangeByKey = new Map<string, number>();

  /**
   * Room for `cases` cases with `idBytes` bytes of ids before growing (a hint: see ByteKeys).
   */
  constructor(cases = 1024, idBytes = cases * 16) {
    const n = Math.max(16, cases);
    this.kinds = new Uint8Array(n);
    this.correct = new Float64Array(n);
    this.aux = new Int32Array(n);
    this.prompt = new Int32Array(n);
    this.line = new Int32Array(n);
    this.ids = new ByteKeys(n, idBytes);
  }

  scoreMin(i: number): number {
    return this.ranges[2 * this.aux[i]!]!;
  }

  scoreMax(i: number): number {
    return this.ranges[2 * this.aux[i]! + 1]!;
  }

  /** Range index of [min, max] for `push`, shared with equal earlier ranges. */
  rangeOf(min: number, max: number): number {
    const r = this.ranges;
    const last = this.lastRange;
    if (last !== -1 && Object.is(r[2 * last], min) && Object.is(r[2 * last + 1], max)) return last;
    // Object.is: a range of -0 is kept apart from one of 0 (the case reads back as loaded).
    const key = `${Object.is(min, -0) ? '-0' : min} ${Object.is(max, -0) ? '-0' : max}`;
    let k = this.rangeByKey.get(key);
    if (k === undefined) {
      k = r.length / 2;
      r.push(min, max);
      if (this.rangeByKey.size < MAX_SHARED) this.rangeByKey.set(key, k);
    }
    this.lastRange = k;
    return k;
  }

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

  /** Every case id, in case order (as `idOf` of each, at once). */
  allIds(): string[] {
    const out = this.ids.strings();
    if (this.oddIds !== null) for (const [id, k] of this.oddIds) out[k] = id;
    return out;
  }

  /** Case i's prompt, or undefined without one. */
  promptTextOf(i: number): string | undefined {
    const p = this.prompt[i]!;
    return p === -1 ? undefined : p >= 0 ? this.prompts[p]! : this.unsharedPrompts[-2 - p]!;
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
  listOf(
    options: readonly string[],
    segment?: { readonly b: Uint8Array; readonly start: number; readonly end: number },
  ): number {
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
    aux: number,
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
    this.aux[i] = aux;
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
    const aux =
      c.kind === 'choice' ? this.listOf(c.options) : c.kind === 'score' ? this.rangeOf(c.scoreMin, c.scoreMax) : 0;
    // The caller checked the id is new; findId needs to know whether ids still ascend.
    if (this.ascending && this.size > 0 && this.ids.compare(this.size - 1, id, 0, id.length) >= 0)
      this.ascending = false;
    this.push(id, 0, id.length, kind, correct, aux, prompt, c.group, c.field, line);
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
      const options = this.optionLists[this.aux[i]!]!;
      const correctIndex = this.correct[i]!;
      return { id, kind, options, correct: options[correctIndex]!, correctIndex, ...base };
    }
    return { id, kind, scoreMin: this.scoreMin(i), scoreMax: this.scoreMax(i), correct: this.correct[i]!, ...base };
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
    const correct = new Float64Array(n);
    correct.set(this.correct);
    this.correct = correct;
    this.aux = growI32(this.aux, n);
    this.prompt = growI32(this.prompt, n);
    this.line = growI32(this.line, n);
  }
}

function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
