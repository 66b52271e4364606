/** SQLite's errors in the store's words: damage told apart from a busy or unwritable file. */
import { closeSync, openSync, readSync } from 'node:fs';
import { DecidekitError } from '../../core/errors.js';
import { fileKindOfHead, type FileKind } from '../../datasets/file-kind.js';
import { StoreDamagedError } from '../store-errors.js';
import { optionMention as option, words } from '../../core/message-words.js';

const DAMAGE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_VTAB']);

/** True for a SQLite error that means the file is damaged rather than busy or unwritable. */
export function isDamage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (DAMAGE_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'))) return true;
  return /no such (table|column|view)|malformed|not a database/i.test(err.message);
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** What a file that is no database looks like, in a few words. */
const LOOKS_LIKE: Record<Exclude<FileKind, 'run-store'>, string> = {
  'typed-decisions': 'a Typed Decisions dataset (JSONL)',
  'offline-dataset': 'an offline dataset (JSONL)',
  'offline-results': 'an offline results file (JSONL)',
  // Its format is told from its first line (a Parquet export is "a Parquet file").
  'decision-export': "a decision export (from 'decidekit runs export')",
  'action-spec': 'an action spec (JSON)',
  'audit-checks': 'an audit checks file (JSON)',
  'audit-transcripts': 'audit transcripts (JSONL)',
  'bench-report': 'a bench report (JSON)',
  'live-record': "a live session record (JSONL, written by 'decidekit live')",
  gzip: 'a gzip file',
  parquet: 'a Parquet file',
  html: 'an HTML page',
  'json-document': 'a JSON document',
};

/**
 * The error for a store file SQLite calls "not a database": when its first bytes are not
 * SQLite's header at all, a file of another kind given as --store (said with what it looks
 * like, and no 'runs check', which could only say the same); else a damaged run store.
 */
export function notADatabaseError(path: string, cause: unknown): DecidekitError {
  const head = headOf(path);
  if (head === null || head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER))
    return new StoreDamagedError(path, 'SQLite cannot read it as a database (its first page is damaged)', { cause });
  return new DecidekitError(
    'store_foreign',
    words`cannot open run store: ${path} is not a SQLite database at all, so not a run store: it looks like ${looksLike(head)} (the file was not changed; pass ${option('storePath')} the path of a run store, or a new path to start one)`,
    { context: { path }, cause },
  );
}

function looksLike(head: Buffer): string {
  const kind = fileKindOfHead(head);
  if (kind === 'decision-export')
    return `a decision export (${head.toString('utf8').trimStart().startsWith('{') ? 'JSONL' : 'CSV'}, from 'decidekit runs export')`;
  if (kind !== null && kind !== 'run-store') return LOOKS_LIKE[kind];
  if (head.includes(0)) return 'a binary file of another kind';
  const firstLine = head.toString('utf8').split('\n', 1)[0]!;
  return firstLine.includes(',') ? 'a text file (CSV?)' : 'a text file';
}

function headOf(path: string): Buffer | null {
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
