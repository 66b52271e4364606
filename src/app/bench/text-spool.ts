/**
 * Text written ahead of its place in an output: a report renders its trace in the one pass
 * over a run's cases, before the header that needs the whole pass, and writes it after. The
 * first `MEMORY_CHARS` of the process's spools wait in memory, the rest in a temp file (a
 * 20,000-case run's Markdown trace, 18.5 MB, never goes to disk; a 100,000-case run's 93 MB
 * mostly does), read back in pieces of about a megabyte (the same text, byte for byte). The
 * file is removed and the memory given back by `dispose`.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const PIECE_BYTES = 1 << 20;

/**
 * The characters all spools of the process hold in memory at most, together (`bench --out`
 * may fill two at once). Text in memory skips encoding it to the file, reading it back and
 * decoding it: a quarter of a Markdown report's CPU beyond its run's read.
 */
const MEMORY_CHARS = 24 << 20;
let heldInMemory = 0;

export class TextSpool {
  #dir: string | null = null;
  #fd: number | null = null;
  /** The text's first pieces, held in memory (everything after them is in the file). */
  #held: string[] = [];
  #heldChars = 0;
  #pending = '';
  #end = 0;

  /** `parentDir`: where its temp file's folder is made (default the system's temp folder). */
  constructor(private readonly parentDir: string = tmpdir()) {}

  /** Appends `text`; moved to memory or written to the file a megabyte or so at a time. */
  write(text: string): void {
    this.#pending += text;
    if (this.#pending.length >= PIECE_BYTES) this.#settle();
  }

  /** Everything written, in pieces, in order; may be read more than once. */
  *pieces(): Generator<string> {
    yield* this.#held;
    if (this.#fd === null) {
      if (this.#pending !== '') yield this.#pending;
      return;
    }
    this.#flush();
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(PIECE_BYTES);
    for (let at = 0; at < this.#end;) {
      const n = readSync(this.#fd, buffer, 0, Math.min(buffer.length, this.#end - at), at);
      if (n === 0) break;
      at += n;
      const text = decoder.write(buffer.subarray(0, n));
      if (text !== '') yield text;
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  }

  /** Closes and removes the file; the spool cannot be read afterwards. */
  dispose(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    if (this.#dir !== null) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = null;
    this.#pending = '';
    heldInMemory -= this.#heldChars;
    this.#held = [];
    this.#heldChars = 0;
  }

  /** The pending piece into memory while the process's budget has room and nothing went to the file yet, else to the file. */
  #settle(): void {
    const chars = this.#pending.length;
    if (this.#fd !== null || heldInMemory + chars > MEMORY_CHARS) {
      this.#flush();
      return;
    }
    this.#held.push(this.#pending);
    this.#heldChars += chars;
    heldInMemory += chars;
    this.#pending = '';
  }

  #flush(): void {
    if (this.#pending === '') return;
    if (this.#fd === null) {
      this.#dir = mkdtempSync(join(this.parentDir, 'decidekit-report-'));
      this.#fd = openSync(join(this.#dir, 'pieces.txt'), 'w+');
    }
    const bytes = Buffer.from(this.#pending, 'utf8');
    this.#pending = '';
    writeSync(this.#fd, bytes, 0, bytes.length, this.#end);
    this.#end += bytes.length;
  }
}
