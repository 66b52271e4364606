/**
 * What kind of decidekit file a path holds, told from its first bytes: so a file given to
 * the wrong command or option is refused once, naming what it is and what to run instead,
 * rather than failing on every line.
 */
import { open } from 'node:fs/promises';
import { constants as zlibConstants, createGunzip } from 'node:zlib';
import { hasParquetMagic } from './parquet-rows.js';
import { refuseIrregularFile } from './input-file.js';

/** The files decidekit reads or writes, and the raw formats it tells apart by their magic bytes. */
export type FileKind =
  | 'typed-decisions'
  | 'offline-dataset'
  | 'offline-results'
  | 'decision-export'
  | 'action-spec'
  | 'audit-checks'
  | 'audit-transcripts'
  | 'bench-report'
  | 'live-record'
  | 'run-store'
  | 'gzip'
  | 'parquet'
  | 'html'
  | 'json-document';

/** Bytes read to tell a file's kind: enough for the first line of every line format decidekit reads. */
const HEAD_BYTES = 64 * 1024;

/**
 * A file's kind and, for a Parquet file with a readable footer, its top-level columns; for
 * a gzip file named `.gz` (which the line readers gunzip), the kind of what it holds.
 */
export interface SniffedFile {
  readonly kind: FileKind | null;
  readonly parquetColumns?: readonly string[];
  readonly gunzipped?: FileKind | null;
}

/**
 * The kind of the file at `path`, or null when it is none that decidekit knows (or cannot be
 * read: the loader then words that). Reads at most the first 64 KiB.
 */
export async function sniffFileKind(path: string): Promise<FileKind | null> {
  return (await sniffFile(path)).kind;
}

/** {@link sniffFileKind}, with the columns of a Parquet file (its footer read once). */
export async function sniffFile(path: string): Promise<SniffedFile> {
  let head: Buffer;
  try {
    // Before the open: opening a named pipe with no writer would block for ever.
    await refuseIrregularFile(path);
    const file = await open(path, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch {
    return { kind: null };
  }
  const kind = fileKindOfHead(head);
  // The readers go by these names: a plain file named .gz is "not valid gzip" to them, and
  // one named .parquet "not a readable parquet file", whatever its lines hold. So it is of
  // no kind here, and no hint sends it to a command that would fail the same way.
  if ((path.endsWith('.gz') && kind !== 'gzip') || (/\.parquet$/i.test(path) && kind !== 'parquet'))
    return { kind: null };
  if (kind === 'gzip')
    return path.endsWith('.gz') ? { kind, gunzipped: fileKindOfHead(await gunzippedHead(head)) } : { kind };
  if (kind !== 'parquet') return { kind };
  const columns = await parquetColumnsOf(path);
  // Unreadable: the reader words what is wrong with it.
  return columns === null ? { kind } : { kind: parquetKindOf(columns), parquetColumns: columns };
}

/** The first bytes (up to HEAD_BYTES) of what a gzip file's first bytes decompress to; a damaged stream gives what came out before. */
async function gunzippedHead(head: Buffer): Promise<Buffer> {
  // A stream, so that a small head of a highly compressed file cannot inflate to megabytes.
  const gunzip = createGunzip({ finishFlush: zlibConstants.Z_SYNC_FLUSH });
  gunzip.end(head);
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= HEAD_BYTES) break;
    }
  } catch {
    // What came out before the damage is still the file's start.
  }
  return Buffer.concat(chunks).subarray(0, HEAD_BYTES);
}

/** The top-level column names of a Parquet file, from its footer; null when unreadable. */
async function parquetColumnsOf(path: string): Promise<string[] | null> {
  try {
    const { asyncBufferFromFile, parquetSchema, parquetMetadataAsync } = await import('hyparquet');
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return parquetSchema(metadata).children.map((c) => c.element.name);
  } catch {
    return null;
  }
}

/**
 * An offline dataset or results file stored as Parquet (told by its columns, as a JSONL line
 * is told by its keys); any other Parquet file (a Typed Decisions one) stays `parquet`.
 */
function parquetKindOf(columns: readonly string[]): FileKind {
  const has = (name: string): boolean => columns.includes(name);
  if (has('workflow') && has('questions')) return 'parquet';
  if (isDecisionExport(has)) return 'decision-export';
  if (has('case_id') && (has('decision') || has('model'))) return 'offline-results';
  if (has('kind') && has('correct')) return 'offline-dataset';
  return 'parquet';
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** The kind of a file from its first bytes (see {@link sniffFileKind}). */
export function fileKindOfHead(head: Buffer): FileKind | null {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (hasParquetMagic(head)) return 'parquet';
  if (head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'run-store';
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart();
  if (/^<(!doctype html|html)[\s>]/i.test(start)) return 'html';
  if (!start.startsWith('{') && !start.startsWith('[')) return csvKindOf(start);
  const firstLine = start.split('\n', 1)[0]!.trim();
  const record = parseRecord(firstLine);
  if (record !== null) return lineKindOf(record) ?? documentKindOf(record);
  // A JSON document across several lines (a report or a spec), told by its opening keys.
  if (/^\{\s*"format"\s*:\s*"decidekit\.bench"/.test(start)) return 'bench-report';
  if (/^\{\s*"checks"\s*:/.test(start)) return 'audit-checks';
  if (/^\{\s*"actions"\s*:/.test(start) && /"rules"\s*:/.test(start)) return 'action-spec';
  // Only a document's own opening line: a JSON Lines file with a broken first line is not one.
  return firstLine === '{' || firstLine === '[' ? 'json-document' : null;
}

function parseRecord(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The line format a first line belongs to, by the keys only that format has. */
function lineKindOf(r: Record<string, unknown>): FileKind | null {
  if (isDecisionExport((name) => name in r)) return 'decision-export';
  if ('workflow' in r && 'questions' in r) return 'typed-decisions';
  // A probe of `live --record`: it has `case_id` too, but none of a result's own keys.
  if ('at' in r && 'request' in r && 'decisions' in r && !('decision' in r)) return 'live-record';
  if ('case_id' in r && ('decision' in r || 'model' in r)) return 'offline-results';
  if ('kind' in r && 'correct' in r) return 'offline-dataset';
  if ('scenario' in r && 'messages' in r) return 'audit-transcripts';
  return null;
}

/** A whole JSON document written on one line. */
function documentKindOf(r: Record<string, unknown>): FileKind | null {
  if (r['format'] === 'decidekit.bench') return 'bench-report';
  if (Array.isArray(r['checks'])) return 'audit-checks';
  if ('actions' in r && 'rules' in r) return 'action-spec';
  return null;
}

/**
 * A per-decision export (`runs export`, core/export/decision-row.ts), told by the columns
 * only it has; it also has `case_id` and `model`, so it is asked before a results file.
 */
function isDecisionExport(has: (name: string) => boolean): boolean {
  return has('schema_version') && has('run_id') && has('question_key');
}

/** A CSV file is known by its header line: only the decision export is written as CSV. */
function csvKindOf(text: string): FileKind | null {
  const header = new Set(
    text
      .split(/\r?\n/, 1)[0]!
      .split(',')
      .map((c) => c.trim().replace(/^"(.*)"$/, '$1')),
  );
  return isDecisionExport((name) => header.has(name)) ? 'decision-export' : null;
}
