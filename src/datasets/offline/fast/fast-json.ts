/**
 * A cursor over the bytes of one JSONL line, for the fast paths of the offline loaders.
 *
 * Why: `JSON.parse` of every line (plus decoding every line to a string first) dominated
 * the time of `score` on large files. The loaders read the common line shapes straight
 * from the bytes with this cursor and build only the values they keep. The cursor accepts
 * a strict subset of JSON: it bails out (returns false / NaN) on anything unusual (escapes
 * in strings, control characters, unknown keys, ...), and the loader then takes the slow
 * path (`JSON.parse` + full validation with messages) for that line. So the fast path
 * never decides what is valid on its own: it accepts only lines the slow path accepts,
 * with equal values (a differential test checks it).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Keys known to a fast path, encoded once. */
export function encodeKeys(names: readonly string[]): Uint8Array[] {
  return names.map((n) => new TextEncoder().encode(n));
}

export class ByteCursor {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  end = 0;
  /** Range and ASCII-ness of the last string read. */
  strStart = 0;
  strEnd = 0;
  strAscii = true;

  reset(buf: Buffer, start: number, end: number): void {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Skips JSON whitespace and returns the next byte, or -1 at the end. */
  peek(): number {
    const b = this.buf;
    let p = this.pos;
    const end = this.end;
    while (p < end) {
      const c = b[p]!;
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      p++;
    }
    this.pos = p;
    return p < end ? b[p]! : -1;
  }

  /** Consumes `byte` after whitespace; false when the next byte is something else. */
  eat(byte: number): boolean {
    if (this.peek() !== byte) return false;
    this.pos++;
    return true;
  }

  /** True when only whitespace is left. */
  atEnd(): boolean {
    return this.peek() === -1;
  }

  /**
   * Reads a string without escapes or control characters into strStart/strEnd (the bytes
   * between the quotes); false to bail out.
   */
  string(): boolean {
    if (this.peek() !== QUOTE) return false;
    const b = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    const start = p;
    let ascii = true;
    for (;;) {
      if (p >= end) return false;
      const c = b[p]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20) return false;
      if (c >= 0x80) ascii = false;
      p++;
    }
    this.strStart = start;
    this.strEnd = p;
    this.strAscii = ascii;
    this.pos = p + 1;
    return true;
  }

  /** The last string read, decoded as JSON.parse would decode it. */
  stringValue(): string {
    return this.buf.toString(this.strAscii ? 'latin1' : 'utf8', this.strStart, this.strEnd);
  }

  /** The last string read equals these bytes. */
  stringIs(bytes: Uint8Array): boolean {
    const n = bytes.length;
    if (this.strEnd - this.strStart !== n) return false;
    const b = this.buf;
    const s = this.strStart;
    for (let i = 0; i < n; i++) if (b[s + i] !== bytes[i]) return false;
    return true;
  }

  /** Index of the last string read among `keys`, or -1. */
  stringIndex(keys: readonly Uint8Array[]): number {
    for (let k = 0; k < keys.length; k++) if (this.stringIs(keys[k]!)) return k;
    return -1;
  }

  /** Reads `"key":` and returns the key's index in `keys`, or -1 (unknown key or bad syntax). */
  key(keys: readonly Uint8Array[]): number {
    if (!this.string()) return -1;
    const k = this.stringIndex(keys);
    if (k === -1 || !this.eat(0x3a)) return -1;
    return k;
  }

  /**
   * Reads a JSON number exactly as JSON.parse does; NaN to bail out (bad syntax).
   * Fast path: up to 15 significant digits and no exponent, m / 10^k, which is the correctly
   * rounded value because m and 10^k are exact doubles and IEEE division rounds correctly.
   */
  number(): number {
    const first = this.peek();
    const b = this.buf;
    const end = this.end;
    const start = this.pos;
    let p = start;
    let negative = false;
    if (first === 0x2d) {
      negative = true;
      p++;
    }
    let m = 0;
    let digits = 0;
    let c = p < end ? b[p]! : -1;
    if (c === 0x30) {
      p++;
    } else if (c >= 0x31 && c <= 0x39) {
      while (p < end && (c = b[p]!) >= 0x30 && c <= 0x39) {
        m = m * 10 + (c - 0x30);
        digits++;
        p++;
      }
    } else {
      return NaN;
    }
    let frac = 0;
    if (p < end && b[p] === 0x2e) {
      p++;
      const fracStart = p;
      while (p < end && (c = b[p]!) >= 0x30 && c <= 0x39) {
        if (m !== 0 || c !== 0x30) digits++;
        m = m * 10 + (c - 0x30);
        p++;
      }
      frac = p - fracStart;
      if (frac === 0) return NaN;
    }
    let exponent = false;
    if (p < end && (b[p] === 0x65 || b[p] === 0x45)) {
      exponent = true;
      p++;
      if (p < end && (b[p] === 0x2b || b[p] === 0x2d)) p++;
      const expStart = p;
      while (p < end && (c = b[p]!) >= 0x30 && c <= 0x39) p++;
      if (p === expStart) return NaN;
    }
    // A number runs into a letter or digit only in invalid JSON ("01", "1x").
    if (p < end) {
      c = b[p]!;
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2e) return NaN;
    }
    this.pos = p;
    if (exponent || digits > 15 || frac > 22) return Number(b.toString('latin1', start, p));
    const v = frac === 0 ? m : m / POW10[frac]!;
    return negative ? -v : v;
  }

  /** Reads `null`; false when the next value is something else. */
  null(): boolean {
    return this.word(0x6e, 0x75, 0x6c, 0x6c);
  }

  /** Reads true or false; -1 when the next value is neither. */
  boolean(): 0 | 1 | -1 {
    const c = this.peek();
    if (c === 0x74) return this.word(0x74, 0x72, 0x75, 0x65) ? 1 : -1;
    // c is after whitespace, so this.pos is at the 'f'.
    if (
      c === 0x66 &&
      this.end - this.pos >= 5 &&
      this.buf[this.pos + 4] === 0x65 &&
      this.word(0x66, 0x61, 0x6c, 0x73)
    ) {
      this.pos++;
      return 0;
    }
    return -1;
  }

  private word(a: number, b: number, c: number, d: number): boolean {
    if (this.peek() !== a) return false;
    const buf = this.buf;
    const p = this.pos;
    if (this.end - p < 4 || buf[p + 1] !== b || buf[p + 2] !== c || buf[p + 3] !== d) return false;
    this.pos = p + 4;
    return true;
  }
}

/** Exact powers of ten (10^0..10^22 are all exact doubles); parsed, not computed with pow. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
