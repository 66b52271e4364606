/**
 * Opening the SQLite file of a store: created (with its folder) and migrated when needed,
 * or for reading only, from a copy when it cannot be read in place. A database written by
 * a newer decidekit, or a SQLite file that is not a decidekit store, is refused unchanged.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { StoreDamagedError, StoreNeedsUpgradeError } from '../store-errors.js';
import { refuseUnusableStoreLocation } from '../store-location.js';
import { newFileRefusal } from '../../datasets/folders.js';
import type { OpenStoreOptions } from '../open-store-options.js';
import {
  refuseForeignOrNewerStore,
  refuseMissingTables,
  migrate,
  olderThanCurrent,
  READABLE_IN_PLACE_FROM,
} from './migrate.js';
import { SCHEMA_VERSION } from './schema.js';
import { canReadInPlace, isEmptyFile, snapshotOf, vacuumedCopyOf } from './snapshot-copies.js';
import { isDamage, notADatabaseError } from './sqlite-errors.js';
import { messageOf } from './connection.js';
import { dropTempFolder, makeTempFolder, STORE_COPY_PREFIX } from '../temp-folders.js';
import { optionMention as option, words } from '../../core/message-words.js';

/** The page cache of each connection, in KiB as SQLite's negative `cache_size` counts it. */
const PAGE_CACHE_KIB = -2000;

/** The store port's options, as this adapter takes them. */
export type OpenSqliteStoreOptions = OpenStoreOptions;

export interface OpenedDatabase {
  readonly db: Database.Database;
  readonly busyTimeoutMs: number;
  /** The temp copy `db` reads instead of the file, or null when it reads the file itself. */
  readonly copyFile: string | null;
  /** Removes the temp copy read instead of the file, if any (after closing `db`). */
  readonly removeCopy: () => void;
}

function wrapOpenError(path: string, err: unknown): DecidekitError {
  const message = messageOf(err);
  if ((err as { code?: unknown }).code === 'SQLITE_NOTADB') return notADatabaseError(path, err);
  if (isDamage(err)) return new StoreDamagedError(path, message, { cause: err });
  return new DecidekitError('store_unreadable', `cannot open run store: ${path} (${message})`, {
    context: { path },
    cause: err,
  });
}

/** Opens (creating and migrating when needed) the SQLite database of the store at `path`. */
export function openDatabase(path: string, options: OpenSqliteStoreOptions = {}): OpenedDatabase {
  const readOnly = options.readOnly === true;
  const mustExist = options.mustExist === true || readOnly;
  refuseMissing(path, { readOnly, mustExist });
  const onStatement = options.onStatement;
  const connect = (file: string, readonly = readOnly) =>
    new Database(file, {
      fileMustExist: mustExist,
      readonly,
      ...(onStatement === undefined ? {} : { verbose: (sql: unknown) => onStatement(String(sql)) }),
    });
  const { db, copyDir } = connectReadable(path, readOnly, connect);
  const removeCopy = () => {
    if (copyDir !== null) dropTempFolder(copyDir);
  };
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
  try {
    // First: every later statement (even setting WAL) may meet another process's lock.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // A 2 MB page cache instead of better-sqlite3's 16 MB: a bench holds two connections (the
    // writer thread's and its own), and runs are written and read in order, which a bigger
    // cache does not speed up (BENCHMARKS.md, "Bench at scale").
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    refuseForeignOrNewerStore(db, path);
    if (readOnly) {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version < READABLE_IN_PLACE_FROM) throw new StoreNeedsUpgradeError(path, version, SCHEMA_VERSION);
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      migrate(db, path);
    }
    db.pragma('foreign_keys = ON');
    refuseMissingTables(db, path);
  } catch (err) {
    db.close();
    removeCopy();
    throw err instanceof DecidekitError ? err : wrapOpenError(path, err);
  }
  return { db, busyTimeoutMs, copyFile: copyDir === null ? null : db.name, removeCopy };
}

/** Refuses a store that must exist and does not (or is an empty file), before anything is created. */
function refuseMissing(path: string, how: { readonly readOnly: boolean; readonly mustExist: boolean }): void {
  refuseUnusableStoreLocation(path);
  if (how.mustExist && !existsSync(path)) {
    throw new DecidekitError(
      'store_missing',
      words`no run store at ${path} (runs are saved there by 'decidekit bench'; pass ${option('storePath', 'PATH')} for another file)`,
      {
        context: { path },
      },
    );
  }
  if (how.readOnly && isEmptyFile(path)) {
    // SQLite reads an empty file as a database at version 0: no upgrade is needed, no run is there.
    throw new DecidekitError(
      'store_missing',
      words`no run store at ${path} yet: the file is empty (runs are saved there by 'decidekit bench'; pass ${option('storePath', 'PATH')} for another file)`,
      { context: { path } },
    );
  }
  if (!how.mustExist) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw new DecidekitError(
        'store_write_failed',
        `cannot make the folder of run store ${path}: ${fileErrorWords(err)} (making ${dirname(path)})`,
        { context: { path }, cause: err },
      );
    }
  }
  if (!how.readOnly) {
    refuseUnwritableFolder(path);
    refuseUnwritableFile(path);
  }
}

/**
 * A store written to must itself take writes (an immutable or read-only file in a writable
 * folder): opened for writing and closed at once, so the command stops before any work rather
 * than after sending, at its first save.
 */
function refuseUnwritableFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new OptionError(
      'storePath',
      words`${option('storePath')} ${path}: the file cannot be written (${fileErrorWords(err)}): a store is written in place (pass ${option('storePath')} the path of a file that can be written)`,
    );
  }
  closeSync(fd);
}

/**
 * A store written to needs its folder to take new files (the store itself, and SQLite's
 * journal files beside it): checked with a temporary file, removed at once, so a folder that
 * takes none is said in words rather than as SQLite's "unable to open database file".
 */
function refuseUnwritableFolder(path: string): void {
  const folder = dirname(path);
  const err = newFileRefusal(folder, `.decidekit-store-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  if (err !== null)
    throw new OptionError(
      'storePath',
      words`${option('storePath')} ${path}: cannot write into the folder ${folder} (${fileErrorWords(err)}): a store is written there with SQLite's journal beside it (pass ${option('storePath')} a path in a folder that takes new files)`,
    );
}

/**
 * A connection that can read the store: the file itself, or for reading only a copy of it
 * when it cannot be read in place (`copyDir` is then the copy's temp folder).
 */
function connectReadable(
  path: string,
  readOnly: boolean,
  connect: (file: string, readonly?: boolean) => Database.Database,
): { readonly db: Database.Database; readonly copyDir: string | null } {
  let db: Database.Database | null = null;
  let copyDir: string | null = null;
  try {
    db = connect(path);
    if (readOnly && !canReadInPlace(db)) {
      // A WAL database is read through its shared-memory file (-shm), which SQLite must be
      // able to create next to it; in a read-only folder it cannot. Read a copy instead.
      db.close();
      db = null;
      copyDir = makeTempFolder(STORE_COPY_PREFIX);
      db = connect(snapshotOf(path, copyDir));
    }
    if (readOnly && olderThanCurrent(db)) {
      // An older decidekit's store: reading it needs the migrations, which write. Read an
      // upgraded copy; the file itself is upgraded by the next command that writes to it.
      let copy: { readonly dir: string; readonly file: string };
      try {
        copy = vacuumedCopyOf(db);
      } finally {
        db.close();
        db = null;
        if (copyDir !== null) dropTempFolder(copyDir);
        copyDir = null;
      }
      copyDir = copy.dir;
      db = connect(copy.file, false);
      refuseForeignOrNewerStore(db, path);
      migrate(db, path);
    }
    return { db, copyDir };
  } catch (err) {
    db?.close();
    if (copyDir !== null) dropTempFolder(copyDir);
    throw wrapOpenError(path, err);
  }
}
