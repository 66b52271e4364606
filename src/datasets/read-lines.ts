import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DecidekitError } from '../core/errors.js';

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** Decompress with gzip. Default: true when the path ends in `.gz`, else false. */
  readonly gunzip?: boolean;
  /** Bytes per read. Default 1 MiB; small values exist for tests of chunk boundaries. */
  readonly chunkBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
/** Large reads: fewer chunks, fewer carried-over partial lines. */
const CHUNK_BYTES = 1 << 20;

/**
 * Streams a text file line by line and calls `onLine(line, lineNumber)` synchronously for
 * every line (1-based numbers), without a promise per line. Lines end at `\n`; a `\r`
 * before it is dropped; a final line without a newline is passed; empty lines are passed
 * (callers skip blank lines); a leading UTF-8 byte order mark is dropped. Lines are decoded
 * as UTF-8 from whole lines of bytes, so a character split across two reads stays whole.
 *
 * Resolves to the number of lines. Rejects with a DecidekitError (`file_unreadable`) naming
 * the path when the file is missing, unreadable or not valid gzip; an error thrown by
 * `onLine` stops the read and rejects with that error.
 */
export async function readLines(path: string, onLine: (line: string, lineNumber: number) => void, options: ReadLinesOptions = {}): Promise<number> {
  return readLineBytes(path, (bytes, start, end, lineNumber) => onLine(bytes.toString('utf8', start, end), lineNumber), options);
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
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const file = createReadStream(path, { highWaterMark: chunkBytes });
  let stream: Readable = file;
  if (gunzip) {
    const z = createGunzip({ chunkSize: Math.max(chunkBytes, 64) });
    file.on('error', (err) => z.destroy(err));
    stream = file.pipe(z);
  }

  let lineNumber = 0;
  /** Bytes of a line that started in an earlier chunk and has not ended yet. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let first = true;
  let callbackFailed = false;

  const emit = (buf: Buffer, start: number, end: number): void => {
    if (first) {
      first = false;
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    }
    if (end > start && buf[end - 1] === CR) end--;
    lineNumber++;
    try {
      onLine(buf, start, end, lineNumber);
    } catch (err) {
      callbackFailed = true;
      throw err;
    }
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      let nl = chunk.indexOf(LF, 0);
      if (pendingBytes > 0) {
        if (nl === -1) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          continue;
        }
        pending.push(chunk.subarray(0, nl));
        const joined = Buffer.concat(pending, pendingBytes + nl);
        pending = [];
        pendingBytes = 0;
        emit(joined, 0, joined.length);
        start = nl + 1;
        nl = chunk.indexOf(LF, start);
      }
      while (nl !== -1) {
        emit(chunk, start, nl);
        start = nl + 1;
        nl = chunk.indexOf(LF, start);
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
      }
    }
  } catch (err) {
    file.destroy();
    stream.destroy();
    if (callbackFailed || !isIoError(err)) throw err;
    throw unreadable(path, err, gunzip);
  }
  if (pendingBytes > 0) {
    const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    emit(joined, 0, joined.length);
  }
  return lineNumber;
}

function isIoError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';
}

function unreadable(path: string, err: NodeJS.ErrnoException, gunzip: boolean): DecidekitError {
  const hint =
    err.code === 'ENOENT'
      ? 'no such file'
      : err.code === 'EACCES'
        ? 'permission denied'
        : err.code === 'EISDIR'
          ? 'is a directory'
          : gunzip && err.code?.startsWith('Z_')
            ? `not valid gzip: ${err.message}`
            : err.message;
  return new DecidekitError('file_unreadable', `cannot read file: ${path} (${hint})`, { context: { file: path }, cause: err });
}
