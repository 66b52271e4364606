/**
 * Where a run store may live: a regular file, outside the kernel's file systems. Checked
 * before anything is created, because creating folders under /proc makes Node's recursive
 * mkdir loop forever, and SQLite on a device or a kernel file fails in odd ways.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';

/** Kernel and device file systems: no place for a database. `/dev/shm` (a tmpfs) is allowed. */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev'] as const;

/**
 * Throws a UsageError when `path` (or where its symbolic links lead) lies under /proc, /sys
 * or /dev, or names something that exists and is not a regular file (a folder, a device).
 */
export function checkStoreLocation(path: string): void {
  const absolute = resolve(path);
  for (const where of new Set([absolute, realLocationOf(absolute)])) {
    const root = SYSTEM_ROOTS.find((r) => isUnder(where, r) && !isUnder(where, '/dev/shm'));
    if (root !== undefined)
      throw new UsageError(
        `the run store cannot live under ${root}: ${path}${where === absolute ? '' : ` (it leads to ${where})`} (${root} is a kernel file system; pass --store a path to a regular file, e.g. ./runs.sqlite)`,
      );
  }
  let kind: string | null = null;
  try {
    const s = statSync(absolute);
    if (!s.isFile()) kind = s.isDirectory() ? 'a folder' : 'not a regular file (a device, socket or pipe)';
  } catch {
    return; // absent (created later) or unreadable (opening words it)
  }
  if (kind !== null)
    throw new UsageError(
      `the run store must be a regular file: ${path} is ${kind} (pass --store a file path, e.g. ${join(path, 'runs.sqlite')})`,
    );
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
