/**
 * Folders for outputs and caches. Nothing decidekit writes belongs under the kernel's file
 * systems (/proc, /sys, /dev; `/dev/shm`, a tmpfs, is fine), and Node 20's recursive mkdir
 * never returns for a path under /proc: such a path is refused before any folder is made.
 */
import { closeSync, existsSync, openSync, realpathSync, rmSync, rmdirSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { OptionError } from '../core/errors.js';
import { optionMention, words, type CallOption, type OptionMention } from '../core/message-words.js';

const KERNEL_ROOTS = ['/proc', '/sys', '/dev'] as const;

/** Where a path lies under /proc, /sys or /dev, itself or through symbolic links. */
export interface KernelLocation {
  readonly root: (typeof KERNEL_ROOTS)[number];
  /** Where the path's symbolic links lead, when that differs from the path. */
  readonly leadsTo: string | null;
}

/** The kernel file system a path lies under (following its symbolic links), else null. */
export function kernelLocationOf(path: string): KernelLocation | null {
  const absolute = resolve(path);
  for (const where of new Set([absolute, realLocationOf(absolute)])) {
    const root = KERNEL_ROOTS.find((r) => isUnder(where, r) && !isUnder(where, '/dev/shm'));
    if (root !== undefined) return { root, leadsTo: where === absolute ? null : where };
  }
  return null;
}

/**
 * Throws an OptionError of `option` when a folder to be made lies under a kernel file system;
 * the message names the option, or `what` when given (e.g. "the dataset cache").
 */
export function refuseKernelFolder(
  path: string,
  option: CallOption,
  what: OptionMention | string = optionMention(option),
): void {
  const kernel = kernelLocationOf(path);
  if (kernel !== null)
    throw new OptionError(
      option,
      words`${what} ${path}: cannot be under ${kernel.root}${kernel.leadsTo === null ? '' : ` (it leads to ${kernel.leadsTo})`}, a kernel file system; give a folder elsewhere, e.g. ./reports/`,
    );
}

/** Makes a folder and its parents, refused under a kernel file system; mkdir's errors pass through. */
export async function makeFolder(
  path: string,
  option: CallOption,
  what: OptionMention | string = optionMention(option),
): Promise<void> {
  refuseKernelFolder(path, option, what);
  await mkdir(path, { recursive: true });
}

/**
 * What stands at a path that is not a regular file, in words ('a folder', 'a symbolic link',
 * 'a FIFO (named pipe)', 'a socket', 'a device'); null for a regular file or anything else.
 * The output rule and the run store name what they refuse with these words.
 */
export function notFileWords(entry: Stats): string | null {
  if (entry.isDirectory()) return 'a folder';
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'a device';
  return null;
}

/**
 * Makes the file `name` in `folder` and removes it at once: the one sure test that the folder
 * takes a new file. Returns why it could not be made (the error), or null when it could.
 */
export function newFileRefusal(folder: string, name: string): unknown {
  const probe = join(folder, name);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (err) {
    return err;
  }
  rmSync(probe, { force: true });
  return null;
}

/** The outermost folder of `path` that does not exist yet (what a recursive mkdir would make first), or null. */
export function outermostMissingFolder(path: string): string | null {
  let missing: string | null = null;
  for (let p = resolve(path); !existsSync(p) && dirname(p) !== p; p = dirname(p)) missing = p;
  return missing;
}

/**
 * Removes `path` and its parents up to `top` (both included) while each is an empty folder:
 * undoes a mkdir whose work failed without touching a folder that holds anything. Synchronous,
 * so it also runs in an abort listener of a process about to end.
 */
export function removeEmptyFolders(path: string, top: string): void {
  const stop = resolve(top);
  for (let p = resolve(path); isUnder(p, stop); p = dirname(p)) {
    try {
      rmdirSync(p);
    } catch {
      return;
    }
    if (p === stop) return;
  }
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** The path with its nearest existing ancestor's symbolic links resolved. */
function realLocationOf(absolute: string): string {
  let existing = absolute;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    return join(realpathSync(existing), relative(existing, absolute));
  } catch {
    return absolute;
  }
}
