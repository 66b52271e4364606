/**
 * Temp folders holding a copy of a store being read (a read-only folder, or a store too old
 * to read in place), kept track of so a process ending at once can remove them: its
 * readers' own clean-up does not run then. No SQLite here: the process entry imports it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const copyDirs = new Set<string>();

/** A new temp folder for a copy of a store. */
export function makeCopyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'decidekit-store-'));
  copyDirs.add(dir);
  return dir;
}

/** Removes a copy's folder. */
export function dropCopyDir(dir: string): void {
  copyDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Removes every copy still being read (a process ending at once: a second Ctrl+C, an interrupted command). */
export function removeTemporaryCopies(): void {
  for (const dir of [...copyDirs]) dropCopyDir(dir);
}
