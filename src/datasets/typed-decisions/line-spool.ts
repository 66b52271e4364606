/**
 * Lines read ahead that wait, in order, to be taken: their bytes are copied end to end into
 * large buffers outside the JavaScript heap and their numbers kept in typed arrays, so a
 * waiting line is no object at all. Pass 2 of a case file reads a megabyte ahead of the
 * cases being sent: a buffer, a closure and its context for each of those lines lived long
 * enough to be promoted by the young collector, and the old generation's collections then
 * paid for them.
 */

/** Bytes per spool buffer; a longer line gets a buffer of its own. */
const SPOOL_BYTES = 1 << 20;
/** Numbers kept per line: its buffer's sequence number, offset, length and two tags. */
const FIELDS = 5;

export class LineSpool {
  /** The spool buffers still holding a waiting line, oldest first; `#firstBuffer` is the first one's sequence number. */
  #buffers: Buffer[] = [];
  #firstBuffer = 0;
  #used = SPOOL_BYTES;
  /** A ring of `FIELDS` numbers a line. */
  #lines = new Float64Array(FIELDS * 64);
  #head = 0;
  #count = 0;
  /** The tags of the line `shift` gave last. */
  tag = 0;
  secondTag = 0;

  get length(): number {
    return this.#count;
  }

  /** Copies `bytes[start, end)` in as the last waiting line, with two numbers of the caller's. */
  push(bytes: Uint8Array, start: number, end: number, tag: number, secondTag: number): void {
    const length = end - start;
    let buffer = this.#buffers[this.#buffers.length - 1];
    if (buffer === undefined || this.#used + length > buffer.length) {
      buffer = Buffer.allocUnsafeSlow(Math.max(SPOOL_BYTES, length));
      this.#buffers.push(buffer);
      this.#used = 0;
    }
    buffer.set(bytes.subarray(start, end), this.#used);
    if (this.#count * FIELDS === this.#lines.length) this.#grow();
    const at = ((this.#head + this.#count) * FIELDS) % this.#lines.length;
    const lines = this.#lines;
    lines[at] = this.#firstBuffer + this.#buffers.length - 1;
    lines[at + 1] = this.#used;
    lines[at + 2] = length;
    lines[at + 3] = tag;
    lines[at + 4] = secondTag;
    this.#used += length;
    this.#count++;
  }

  /** The first waiting line's text (its tags in `tag` and `secondTag`); the spool must not be empty. */
  shift(): string {
    if (this.#count === 0) throw new RangeError('no line is waiting');
    const lines = this.#lines;
    const at = this.#head * FIELDS;
    const sequence = lines[at]!;
    // Buffers before this line's hold no waiting line any more.
    while (this.#firstBuffer < sequence) {
      this.#buffers.shift();
      this.#firstBuffer++;
    }
    const offset = lines[at + 1]!;
    const text = this.#buffers[0]!.toString('utf8', offset, offset + lines[at + 2]!);
    this.tag = lines[at + 3]!;
    this.secondTag = lines[at + 4]!;
    this.#head = (this.#head + 1) % (lines.length / FIELDS);
    this.#count--;
    return text;
  }

  /** Drops every waiting line and its bytes. */
  clear(): void {
    this.#buffers = [];
    this.#firstBuffer = 0;
    this.#used = SPOOL_BYTES;
    this.#head = 0;
    this.#count = 0;
  }

  #grow(): void {
    const old = this.#lines;
    const slots = old.length / FIELDS;
    const grown = new Float64Array(old.length * 2);
    for (let i = 0; i < this.#count; i++) {
      const from = ((this.#head + i) % slots) * FIELDS;
      grown.set(old.subarray(from, from + FIELDS), i * FIELDS);
    }
    this.#lines = grown;
    this.#head = 0;
  }
}
