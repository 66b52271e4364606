import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DecidekitError, InvalidInputError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { refuseIrregularFile } from './input-file.js';

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** Decompress with gzip. Default: true when the path ends in `.gz`, else false. */
  readonly gunzip?: boolean;
  /** Bytes per read. Default 1 MiB; small values exist for tests of chunk boundaries. */
  readonly chunkBytes?: number;
  /** Stop at this byte of the file (plain files; it should be the start of a line). Default: the end. */
  readonly endByte?: number;
  /**
   * Awaited before each read: a consumer that holds what it was given can
   * make the reader wait (back-pressure), or end the read early by resolving to false.
   */
  readonly beforeRead?: () => boolean | Promise<boolean>;
}

/**
 * The text of `bytes[start, end)`, or null when those bytes are not valid UTF-8 (the
 * line's reader reports it rather than read replacement characters into ids and names).
 */
export function utf8Text(bytes: Buffer, start: number, end: number): string | null {
  return isUtf8(bytes.subarray(start, end)) ? bytes.toString('utf8', start, end) : null;
}

const LF = 0x0a;
/**
 * The typed array's own indexOf: a V8 builtin, cheap to call a million times. Buffer's
 * indexOf goes through a JS wrapper into C++ and cost ~0.3 us a call (a third of the time
 * of reading a large results file, measured).
 */
const indexOfByte = Uint8Array.prototype.indexOf;
const CR = 0x0d;
/** Large reads: fewer chunks, fewer carried-over partial lines. */
const CHUNK_BYTES = 1 << 20;

/**
 * The longest line read, in bytes (64 MiB, documented in docs/file-formats.md): a longer
 * one is a problem of that line, reported before it is held whole, far below the longest
 * string Node can make (about 512 Mi characters) and far above any real case or result.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The problem of a line longer than {@link MAX_LINE_BYTES}, naming the file and the line. */
export function lineTooLong(path: string, lineNumber: number): InvalidInputError {
  return new InvalidInputError([
    {
      file: path,
      line: lineNumber,
      message: `the line is longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB, the longest line decidekit reads (is this a dataset or results file, one JSON value a line?)`,
    },
  ]);
}

/**
 * Streams a text file line by line and calls `onLine(line, lineNumber)` synchronously for
 * every line (1-based numbers), without a promise per line. Lines end at `\n`; a `\r`
 * before it is dropped; a final line without a newline is passed; empty lines are counted
 * but not passed (callers skip lines of white space); a leading UTF-8 byte order mark is
 * dropped. Lines are decoded
 * as UTF-8 from whole lines of bytes, so a character split across two reads stays whole.
 *
 * Resolves to the number of lines. Rejects with a DecidekitError (`file_unreadable`) naming
 * the path when the file is missing, unreadable or not valid gzip; an error thrown by
 * `onLine` stops the read and rejects with that error.
 */
export async function readLines(
  path: string,
  onLine: (line: string, lineNumber: number) => void,
  options: ReadLinesOptions = {},
): Promise<number> {
  return readLineBytes(
    path,
    (bytes, start, end, lineNumber) => onLine(bytes.toString('utf8', start, end), lineNumber),
    options,
  );
}

/**
 * The bytes under {@link readLines}: `onLine(bytes, start, end, lineNumber)` gets the line
 * as `bytes[start, end)` (no line end, no byte order mark), valid only during the call.
 * For parsers that read bytes directly instead of decoding every line to a string.
 */
export async function readLineBytes(
  path: string,
  onLine: (bytes: Buffer, start: number, end: number, lineNumber: number) => void,
  options: ReadLinesOptions = {},
): Promise<number> {
  const gunzip = options.gunzip ?? path.endsWith('.gz');
  const beforeRead = options.beforeRead;
  const chunkBytes = Math.max(1, options.chunkBytes ?? CHUNK_BYTES);
  let lineNumber = 0;
  let first = true;
  let callbackFailed = false;

  const emit = (buf: Buffer, start: number, end: number): void => {
    if (first) {
      first = false;
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    }
    if (end > start && buf[end - 1] === CR) end--;
    if (end - start > MAX_LINE_BYTES) throw lineTooLong(path, lineNumber + 1);
    lineNumber++;
    if (end === start) return;
    try {
      onLine(buf, start, end, lineNumber);
    } catch (err) {
      callbackFailed = true;
      throw err;
    }
  };

  /**
   * Counts the run of empty lines at `buf[at]` (a byte after a newline) without a call per
   * line, and returns where the run ends. A file of blank lines is then read at the speed of
   * a byte loop: a call of `onLine` for each of a billion empty lines took minutes.
   */
  const skipEmpty = (buf: Uint8Array, at: number, end: number): number => {
    let i = at;
    while (i < end && buf[i] === LF) i++;
    lineNumber += i - at;
    return i;
  };

  /** Emits the complete lines of buf[0, end) and returns where the incomplete last one starts. */
  const split = (buf: Buffer, end: number): number => {
    let start = 0;
    let nl = indexOfByte.call(buf, LF, 0);
    while (nl !== -1 && nl < end) {
      emit(buf, start, nl);
      start = skipEmpty(buf, nl + 1, end);
      nl = indexOfByte.call(buf, LF, start);
    }
    return start;
  };

  try {
    await refuseIrregularFile(path);
    if (gunzip)
      await readGunzipped(path, chunkBytes, emit, skipEmpty, beforeRead, () => lineTooLong(path, lineNumber + 1));
    else {
      // One buffer, reused: the incomplete last line moves to its front and the next read
      // goes after it (no new buffer per read, no joining of pieces).
      const file = await open(path, 'r');
      try {
        let buf = Buffer.allocUnsafeSlow(chunkBytes);
        let carry = 0;
        let left = gunzip ? Infinity : (options.endByte ?? Infinity);
        for (;;) {
          if (carry > MAX_LINE_BYTES) throw lineTooLong(path, lineNumber + 1);
          if (carry === buf.length) {
            const grown = Buffer.allocUnsafeSlow(buf.length * 2);
            buf.copy(grown, 0, 0, carry);
            buf = grown;
          }
          if (left <= 0) break;
          if (beforeRead !== undefined && !(await beforeRead())) return lineNumber;
          const { bytesRead } = await file.read(buf, carry, Math.min(buf.length - carry, left), null);
          if (bytesRead === 0) break;
          left -= bytesRead;
          const end = carry + bytesRead;
          // Bytes after `end` are stale: indexOf must not see a newline there.
          const rest = split(end === buf.length ? buf : buf.subarray(0, end), end);
          buf.copy(buf, 0, rest, end);
          carry = end - rest;
        }
        if (carry > MAX_LINE_BYTES) throw lineTooLong(path, lineNumber + 1);
        if (carry > 0) emit(buf, 0, carry);
      } finally {
        await file.close();
      }
    }
  } catch (err) {
    if (callbackFailed || err instanceof DecidekitError || !isIoError(err)) throw err;
    throw unreadable(path, err, gunzip);
  }
  return lineNumber;
}

async function readGunzipped(
  path: string,
  chunkBytes: number,
  emit: (buf: Buffer, start: number, end: number) => void,
  skipEmpty: (buf: Uint8Array, at: number, end: number) => number,
  beforeRead: ReadLinesOptions['beforeRead'],
  tooLong: () => Error,
): Promise<void> {
  const file = createReadStream(path, { highWaterMark: chunkBytes });
  const z = createGunzip({ chunkSize: Math.max(chunkBytes, 64) });
  file.on('error', (err) => z.destroy(err));
  const stream: Readable = file.pipe(z);
  /** Bytes of a line that started in an earlier chunk and has not ended yet. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (beforeRead !== undefined && !(await beforeRead())) return;
      let start = 0;
      let nl = indexOfByte.call(chunk, LF, 0);
      if (pendingBytes > 0) {
        if (nl === -1) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes > MAX_LINE_BYTES) throw tooLong();
          continue;
        }
        if (pendingBytes + nl > MAX_LINE_BYTES) throw tooLong();
        pending.push(chunk.subarray(0, nl));
        const joined = Buffer.concat(pending, pendingBytes + nl);
        pending = [];
        pendingBytes = 0;
        emit(joined, 0, joined.length);
        start = skipEmpty(chunk, nl + 1, chunk.length);
        nl = indexOfByte.call(chunk, LF, start);
      }
      while (nl !== -1) {
        emit(chunk, start, nl);
        start = skipEmpty(chunk, nl + 1, chunk.length);
        nl = indexOfByte.call(chunk, LF, start);
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) throw tooLong();
      }
    }
  } finally {
    file.destroy();
    stream.destroy();
  }
  if (pendingBytes > 0) {
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    emit(joined, 0, joined.length);
  }
}

function isIoError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';
}

function unreadable(path: string, err: NodeJS.ErrnoException, gunzip: boolean): DecidekitError {
  const hint = gunzip && err.code?.startsWith('Z_') ? `not valid gzip: ${err.message}` : fileErrorWords(err);
  return new DecidekitError('file_unreadable', `cannot read file: ${path} (${hint})`, {
    context: { file: path },
    cause: err,
  });
}
