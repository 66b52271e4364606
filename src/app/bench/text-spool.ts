/**
 * Text written ahead of its place in an output, kept in a temp file instead of memory: a
 * report renders its trace in the one pass over a run's cases, before the header that
 * needs the whole pass, and writes it after. Read back in pieces of about a megabyte (the
 * same text, byte for byte). The file is removed by `dispose`.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const PIECE_BYTES = 1 << 20;

export class TextSpool {
  #dir: string | null = null;
  #fd: number | null = null;
  #pending = '';
  #end = 0;

  /** Appends `text`; written to the file a megabyte or so at a time. */
  write(text: string): void {
    this.#pending += text;
    if (this.#pending.length >= PIECE_BYTES) this.#flush();
  }

  /** Everything written, in pieces, in order; may be read more than once. */
  *pieces(): Generator<string> {
    // What fits in one piece never goes to disk.
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
  }

  #flush(): void {
    if (this.#pending === '') return;
    if (this.#fd === null) {
      this.#dir = mkdtempSync(join(tmpdir(), 'decidekit-report-'));
      this.#fd = openSync(join(this.#dir, 'pieces.txt'), 'w+');
    }
    const bytes = Buffer.from(this.#pending, 'utf8');
    this.#pending = '';
    writeSync(this.#fd, bytes, 0, bytes.length, this.#end);
    this.#end += bytes.length;
  }
}
