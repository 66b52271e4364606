/**
 * Where a run store may live: a regular file, outside the kernel's file systems. Checked
 * before anything is created, because creating folders under /proc makes Node's recursive
 * mkdir loop forever, and SQLite on a device or a kernel file fails in odd ways.
 */
import { shellWord } from '../core/shell-word.js';
import { statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { kernelLocationOf, notFileWords } from '../datasets/folders.js';
import { OptionError } from '../core/errors.js';
import { optionMention, words } from '../core/message-words.js';

/**
 * Throws an OptionError (of `storePath`) when `path` (or where its symbolic links lead) lies under /proc, /sys
 * or /dev, or names something that exists and is not a regular file (a folder, a device).
 */
export function refuseUnusableStoreLocation(path: string): void {
  const store = optionMention('storePath');
  const absolute = resolve(path);
  const kernel = kernelLocationOf(absolute);
  if (kernel !== null)
    throw new OptionError(
      'storePath',
      words`the run store cannot live under ${kernel.root}: ${path}${kernel.leadsTo === null ? '' : ` (it leads to ${kernel.leadsTo})`} (${kernel.root} is a kernel file system; pass ${store} a path to a regular file, e.g. ./runs.sqlite)`,
    );
  let found: Stats | null = null;
  try {
    found = statSync(absolute);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENAMETOOLONG')
      throw new OptionError(
        'storePath',
        words`the run store cannot be made at ${path}: a name in the path is longer than the file system allows (usually 255 bytes; pass ${store} a shorter path)`,
      );
    // Absent (created later, unless a file stands where a folder must be) or unreadable (opening words it).
    const blocking = folderOf(absolute).fileInTheWay;
    if (blocking !== null)
      throw new OptionError(
        'storePath',
        words`the run store cannot be made at ${path}: ${blocking} is a file, not a folder (pass ${store} a path in a folder, e.g. ${store} ${shellWord(join(dirname(blocking), STORE_NAME))})`,
      );
    return;
  }
  if (found.isFile()) return;
  // A folder takes a store inside it; anything else, a store beside it (the hint works when pasted).
  const suggested = found.isDirectory() ? join(path, STORE_NAME) : besideStore(path);
  throw new OptionError(
    'storePath',
    words`the run store must be a regular file: ${path} is ${kindOf(found)} (pass ${store} a file path, e.g. ${store} ${shellWord(suggested)})`,
  );
}

/** The store's usual file name, which the hints suggest. */
const STORE_NAME = 'runs.sqlite';

/** A store path beside `path`, under another name than its own. */
function besideStore(path: string): string {
  return join(dirname(path), basename(path) === STORE_NAME ? `decidekit-${STORE_NAME}` : STORE_NAME);
}

/** What stands at a store path that is not a regular file, in words. */
function kindOf(found: Stats): string {
  if (found.isDirectory()) return 'a folder';
  const what = notFileWords(found);
  return what === null ? 'not a regular file' : `${what}, not a regular file`;
}

/** Where the folder of a store path stands: the first of its folders that does not exist, or a file standing where a folder must. */
interface StoreFolder {
  /** The outermost folder of the path that does not exist yet (null when the store's folder exists). */
  readonly missing: string | null;
  /** A regular file (or other non-folder) where one of the path's folders must be, else null. */
  readonly fileInTheWay: string | null;
}

function folderOf(absolutePath: string): StoreFolder {
  let missing: string | null = null;
  for (let folder = dirname(absolutePath); ; folder = dirname(folder)) {
    try {
      const s = statSync(folder);
      return { missing, fileInTheWay: s.isDirectory() ? null : folder };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // Unreadable (permission): the opening words it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { missing, fileInTheWay: null };
      missing = folder;
      if (dirname(folder) === folder) return { missing, fileInTheWay: null };
    }
  }
}

/**
 * The outermost folder of a store path that does not exist yet (what `bench` would make),
 * or null when the store's folder exists.
 */
export function missingStoreFolder(path: string): string | null {
  return folderOf(resolve(path)).missing;
}
