/**
 * Reading a store that cannot be read where it is: a WAL database in a read-only folder is
 * read from a copy of its file and log, and an older decidekit's store from an upgraded
 * copy, both in temp folders (`store/temp-folders.ts`) removed when the store is closed.
 */
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { sqlString } from '../../core/sql-text.js';
import { dropTempFolder, makeTempFolder, STORE_COPY_PREFIX } from '../temp-folders.js';

/** An empty file with no write-ahead log beside it: what `touch` makes, no database yet. */
export function isEmptyFile(path: string): boolean {
  try {
    return statSync(path).size === 0 && !existsSync(`${path}-wal`);
  } catch {
    return false;
  }
}

/** False when a read-only connection cannot read (a WAL file whose -shm cannot be created). */
export function canReadInPlace(db: Database.Database): boolean {
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return true;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')))
      return false;
    throw err;
  }
}

/** Copies the database and its write-ahead log (committed writes not yet in the file) into `dir`. */
export function snapshotOf(path: string, dir: string): string {
  const copy = join(dir, 'runs.sqlite');
  copyFileSync(path, copy);
  if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
  return copy;
}

/**
 * One consistent copy of the database in a new temp folder, made by SQLite in a read
 * transaction, whatever another process writes meanwhile (copying the file and its log one
 * after the other could mix two moments). Returns the copy's folder and file.
 */
export function vacuumedCopyOf(db: Database.Database): { readonly dir: string; readonly file: string } {
  const dir = makeTempFolder(STORE_COPY_PREFIX);
  const file = join(dir, 'runs.sqlite');
  try {
    db.exec(`VACUUM INTO ${sqlString(file)}`);
  } catch (err) {
    dropTempFolder(dir);
    throw err;
  }
  return { dir, file };
}
