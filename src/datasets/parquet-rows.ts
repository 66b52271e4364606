/**
 * Rows of a Parquet file for the line-oriented readers (the offline dataset and results):
 * each row becomes the value a JSONL line of the same file would parse to, so one set of
 * checks and messages serves both formats. docs/file-formats.md, "Parquet instead of JSONL".
 *
 * Read one row group at a time, so memory is bounded by the largest row group. Values are
 * mapped as: 64-bit integers to numbers; a column of logical type JSON, or a text column
 * the caller names as JSON text, parsed strictly (a repeated key or too deep nesting is that
 * row's problem); a struct (group) column to an
 * object in which null fields count as absent, since a Parquet struct has every field on
 * every row; lists to arrays.
 */
import { given } from '../core/given.js';
import { open } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DecidekitError, InvalidInputError } from '../core/errors.js';
import { jsonProblemMessage, parseStrictJson } from '../core/strict-json.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { refuseIrregularFile } from './input-file.js';

/** `PAR1`: the four bytes every Parquet file starts (and ends) with. */
const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31] as const;

/** Whether `head` (a file's first bytes) starts with the Parquet magic `PAR1`. */
export function hasParquetMagic(head: Uint8Array): boolean {
  return PARQUET_MAGIC.every((byte, i) => head[i] === byte);
}

/** Whether the file at `path` starts with the Parquet magic; an open or read error throws. */
export async function startsWithParquetMagic(path: string): Promise<boolean> {
  await refuseIrregularFile(path);
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return hasParquetMagic(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** `.parquet` by name, or the Parquet magic bytes `PAR1` at the start of the file. */
export async function isParquetFile(path: string): Promise<boolean> {
  if (/\.parquet$/i.test(path)) return true;
  if (/\.gz$/i.test(path)) return false;
  try {
    return await startsWithParquetMagic(path);
  } catch {
    return false; // the JSONL reader words the error
  }
}

/** A JSON column value that is not strict JSON: reported as the row's problem. */
export class BadJsonValue {
  constructor(readonly message: string) {}
}

export interface ParquetRowsOptions {
  /** Runs before any row is read, and may throw (e.g. a required column is missing). */
  readonly check?: (info: ParquetRowsInfo) => void;
  /**
   * Columns whose value is an object or a list in a JSONL line: stored as text (the way
   * Typed Decisions stores its JSON columns), a value is parsed as strict JSON.
   */
  readonly jsonTextColumns?: readonly string[];
  /** Read only these top-level columns (those the file has); the others are never decoded. Default: all. */
  readonly columns?: readonly string[];
  /** How errors name the file (default: the path). */
  readonly displayName?: string;
}

export interface ParquetRowsInfo {
  /** The file's top-level column names, in order. */
  readonly columns: readonly string[];
  readonly rows: number;
}

/**
 * Calls `onRow(value, rowNumber)` for every row (1-based), in order. `check(columns)` runs
 * first and may throw (e.g. a required column is missing). A file that is not readable
 * Parquet throws a DecidekitError naming it.
 */
export async function readParquetRows(
  path: string,
  onRow: (value: Record<string, unknown>, rowNumber: number) => void,
  options: ParquetRowsOptions = {},
): Promise<ParquetRowsInfo> {
  const { check = () => {}, jsonTextColumns = [], displayName = path } = options;
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import('hyparquet');
  let file;
  let metadata;
  let top;
  try {
    await refuseIrregularFile(path);
    file = await asyncBufferFromFile(path);
    metadata = await parquetMetadataAsync(file);
    // Top-level columns: the root's children.
    top = parquetSchema(metadata).children.map(({ element: e, children }) => ({
      name: e.name,
      group: children.length > 0,
      text: e.type === 'BYTE_ARRAY' && (e.converted_type === 'UTF8' || e.logical_type?.type === 'STRING'),
    }));
  } catch (err) {
    // An error without a code is hyparquet's: the bytes are not Parquet.
    const reason = fileErrorWords(
      err,
      `not a readable parquet file: ${parquetProblem(err, 'its footer (the metadata)')}`,
    );
    throw new DecidekitError('file_unreadable', `cannot read file: ${displayName} (${reason})`, {
      context: { file: displayName },
      cause: err,
    });
  }
  const info: ParquetRowsInfo = { columns: top.map((c) => c.name), rows: Number(metadata.num_rows) };
  check(info);
  const groups = top.filter((c) => c.group).map((c) => c.name);
  const jsonText = top.filter((c) => c.text && jsonTextColumns.includes(c.name)).map((c) => c.name);
  const columns = options.columns?.filter((c) => info.columns.includes(c));
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({
        file,
        metadata,
        rowStart,
        rowEnd,
        ...given({ columns }),
        compressors: ZLIB_DECOMPRESSORS,
        parsers: { jsonFromBytes: strictJsonFromBytes },
      });
    } catch (err) {
      throw new DecidekitError(
        'file_unreadable',
        `cannot read file: ${displayName} (cannot decode parquet rows ${rowStart + 1}-${rowEnd}: ${parquetProblem(err, 'their pages')})`,
        { context: { file: displayName }, cause: err },
      );
    }
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const value: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(row))
        value[key] =
          typeof v === 'string' && jsonText.includes(key) ? strictJsonFromText(v) : plain(v, groups.includes(key));
      onRow(value, rowStart + k + 1);
    }
    rowStart = rowEnd;
  }
  return info;
}

/**
 * What hyparquet found wrong, in its words ("parquet file invalid (footer != PAR1)"); a
 * TypeError or RangeError is its decoder tripping over bytes that are not what they claim
 * ("Cannot read properties of undefined"), said as damage to `part` instead.
 */
function parquetProblem(err: unknown, part: string): string {
  if (err instanceof TypeError || err instanceof RangeError || err instanceof SyntaxError || !(err instanceof Error))
    return `${part} cannot be decoded: the file is damaged or cut short`;
  return err.message;
}

/** A whole-file problem when a required column is missing (once, not on every row). */
export function requireColumns(path: string, columns: readonly string[], required: readonly string[]): void {
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new InvalidInputError([
      {
        file: path,
        line: null,
        message: `missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (columns: ${columns.join(', ') || 'none'})`,
      },
    ]);
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function strictJsonFromBytes(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined || bytes === null) return bytes;
  return strictJsonFromText(decoder.decode(bytes));
}

function strictJsonFromText(text: string): unknown {
  const r = parseStrictJson(text);
  return r.ok ? r.value : new BadJsonValue(jsonProblemMessage(r));
}

/** A decoded Parquet value as JSON would hold it (see the module comment). */
function plain(v: unknown, fromGroup: boolean): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map((x) => plain(x, fromGroup));
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, x] of Object.entries(v)) {
      if (fromGroup && (x === null || x === undefined)) continue;
      out[key] = plain(x, fromGroup);
    }
    return out;
  }
  return v;
}

/** hyparquet reads SNAPPY itself; GZIP and BROTLI come from node:zlib. (ZSTD needs Node 22.15+.) */
const ZLIB_DECOMPRESSORS = {
  GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)),
  BROTLI: (input: Uint8Array) => new Uint8Array(brotliDecompressSync(input)),
};
