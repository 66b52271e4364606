/**
 * Finished cases of a run without a store, kept on disk instead of in memory: each case is
 * appended to a temp file as JSON (numbers round-trip exactly) and found again by its
 * position in the run, so the reports read them back in run order however the parallel
 * requests finished. The file is removed by `dispose`.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { CaseSource } from '../../core/bench/run.js';

export class CaseSpool implements CaseSource {
  readonly #dir: string;
  #fd: number | null;
  /** Byte offset of each position's case, -1 when not (yet) finished. */
  readonly #offsets: Float64Array;
  readonly #lengths: Uint32Array;
  #end = 0;
  #count = 0;

  /** `positions`: the run's case count; cases are added with their position in it. */
  constructor(positions: number) {
    this.#dir = mkdtempSync(join(tmpdir(), 'decidekit-cases-'));
    this.#fd = openSync(join(this.#dir, 'cases.jsonl'), 'w+');
    this.#offsets = new Float64Array(positions).fill(-1);
    this.#lengths = new Uint32Array(positions);
  }

  get length(): number {
    return this.#count;
  }

  add(result: CaseResult, position: number): void {
    const bytes = Buffer.from(`${JSON.stringify(result)}\n`);
    writeSync(this.#open(), bytes, 0, bytes.length, this.#end);
    if (this.#offsets[position]! < 0) this.#count++;
    this.#offsets[position] = this.#end;
    this.#lengths[position] = bytes.length;
    this.#end += bytes.length;
  }

  *[Symbol.iterator](): Iterator<CaseResult> {
    let buffer = Buffer.alloc(64 * 1024);
    for (let p = 0; p < this.#offsets.length; p++) {
      const offset = this.#offsets[p]!;
      if (offset < 0) continue;
      const length = this.#lengths[p]!;
      if (buffer.length < length) buffer = Buffer.alloc(length * 2);
      readSync(this.#open(), buffer, 0, length, offset);
      yield JSON.parse(buffer.toString('utf8', 0, length)) as CaseResult;
    }
  }

  /** Closes and removes the file; the spool cannot be read afterwards. */
  dispose(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #open(): number {
    if (this.#fd === null) throw new Error('the case spool was disposed');
    return this.#fd;
  }
}
