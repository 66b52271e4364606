/**
 * Where a run store may live: a regular file, outside the kernel's file systems. Checked
 * before anything is created, because creating folders under /proc makes Node's recursive
 * mkdir loop forever, and SQLite on a device or a kernel file fails in odd ways.
 */
import { shellWord } from '../core/shell-word.js';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { kernelLocationOf } from '../datasets/folders.js';
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
  let kind: string | null = null;
  try {
    const s = statSync(absolute);
    if (!s.isFile()) kind = s.isDirectory() ? 'a folder' : 'not a regular file (a device, socket or pipe)';
  } catch {
    return; // absent (created later) or unreadable (opening words it)
  }
  if (kind !== null)
    throw new OptionError(
      'storePath',
      words`the run store must be a regular file: ${path} is ${kind} (pass ${store} a file path, e.g. ${store} ${shellWord(join(path, 'runs.sqlite'))})`,
    );
}
