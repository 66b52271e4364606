/**
 * An append-only list of byte strings with an optional hash index, for the offline loaders:
 * case ids, prompts and option lists are kept and looked up as the bytes they were read
 * from, so a million-line file needs no string (and no Map entry) per line.
 */

/** FNV-1a over the bytes, then a murmur3 finaliser so the low bits (the slot) mix well. */
export function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export class ByteKeys {
  /** All keys back to back; key i is bytes[starts[i], starts[i + 1]). */
  private bytes: Buffer;
  private starts: Int32Array<ArrayBuffer>;
  private count = 0;
  /** Open addressing (linear probing): key index + 1, 0 = empty. Null until first needed. */
  private slots: Int32Array | null = null;
  private mask = 0;

  /**
   * Room for `keys` keys of `bytes` bytes in all before growing. Large hints cost no memory
   * until used (zeroed allocations are mapped lazily); growing copies everything, and on
   * some machines touching fresh memory is the dearest part of loading a large file.
   */
  constructor(keys = 1 << 10, bytes = 1 << 12) {
    this.starts = new Int32Array(Math.max(2, keys + 1));
    this.bytes = Buffer.alloc(Math.max(16, bytes));
  }

  get size(): number {
    return this.count;
  }

  /** Appends a key (duplicates are the caller's business) and returns its index. */
  add(b: Uint8Array, start: number, end: number): number {
    const n = end - start;
    const used = this.starts[this.count]!;
    if (used + n > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, used + n));
      this.bytes.copy(grown, 0, 0, used);
      this.bytes = grown;
    }
    if (this.count + 2 > this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    // Keys are short: a loop beats making a subarray to copy from.
    const kb = this.bytes;
    for (let j = 0; j < n; j++) kb[used + j] = b[start + j]!;
    const i = this.count++;
    this.starts[this.count] = used + n;
    if (this.slots !== null) {
      if (this.count * 2 > this.slots.length) this.rebuild();
      else this.insert(i);
    }
    return i;
  }

  /** Appends the UTF-8 bytes of a string. */
  addString(s: string): number {
    const b = Buffer.from(s, 'utf8');
    return this.add(b, 0, b.length);
  }

  /** Index of a key equal to `b[start, end)`, or -1. Builds the index on first use. */
  indexOf(b: Uint8Array, start: number, end: number): number {
    if (this.slots === null) this.rebuild();
    const slots = this.slots!;
    const mask = this.mask;
    let s = hashBytes(b, start, end) & mask;
    for (;;) {
      const k = slots[s]!;
      if (k === 0) return -1;
      if (this.equals(k - 1, b, start, end)) return k - 1;
      s = (s + 1) & mask;
    }
  }

  indexOfString(s: string): number {
    const b = Buffer.from(s, 'utf8');
    return this.indexOf(b, 0, b.length);
  }

  /** Key i equals `b[start, end)`. */
  equals(i: number, b: Uint8Array, start: number, end: number): boolean {
    const ks = this.starts[i]!;
    const n = this.starts[i + 1]! - ks;
    if (n !== end - start) return false;
    const kb = this.bytes;
    for (let j = 0; j < n; j++) if (kb[ks + j] !== b[start + j]) return false;
    return true;
  }

  /** Sign of (key i) - `b[start, end)` in byte order. */
  compare(i: number, b: Uint8Array, start: number, end: number): number {
    const ks = this.starts[i]!;
    const kn = this.starts[i + 1]! - ks;
    const n = end - start;
    const m = kn < n ? kn : n;
    const kb = this.bytes;
    for (let j = 0; j < m; j++) {
      const d = kb[ks + j]! - b[start + j]!;
      if (d !== 0) return d;
    }
    return kn - n;
  }

  /** Key i decoded as UTF-8. */
  toString(i: number): string {
    return this.bytes.toString('utf8', this.starts[i]!, this.starts[i + 1]!);
  }

  /**
   * Every key as a string, in order. ASCII keys (the usual ids) are sliced out of one decoded
   * string, far cheaper than decoding a million short strings one by one.
   */
  strings(): string[] {
    const end = this.starts[this.count]!;
    const out = new Array<string>(this.count);
    let ascii = true;
    for (let k = 0; k < end; k++)
      if (this.bytes[k]! >= 0x80) {
        ascii = false;
        break;
      }
    if (!ascii) {
      for (let i = 0; i < this.count; i++) out[i] = this.toString(i);
      return out;
    }
    const all = this.bytes.toString('latin1', 0, end);
    for (let i = 0; i < this.count; i++) out[i] = all.slice(this.starts[i]!, this.starts[i + 1]!);
    return out;
  }

  /** Bytes of key i (a view, valid until the next add). */
  view(i: number): Uint8Array {
    return this.bytes.subarray(this.starts[i]!, this.starts[i + 1]!);
  }

  private rebuild(): void {
    let cap = 1 << 4;
    while (cap < this.count * 2 + 2) cap *= 2;
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < this.count; i++) this.insert(i);
  }

  private insert(i: number): void {
    const slots = this.slots!;
    const mask = this.mask;
    let s = hashBytes(this.bytes, this.starts[i]!, this.starts[i + 1]!) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = i + 1;
  }
}
