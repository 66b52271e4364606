/**
 * Temp folders of work under way (a copy of a store being read, a Parquet export's pipes and
 * DuckDB's file), kept track of so a process ending at once can remove them: their users' own
 * clean-up does not run then. No SQLite or DuckDB here: the process entry imports it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name of a temp folder holding a copy of a store being read (a read-only folder's snapshot, an old store's upgraded copy). */
export const STORE_COPY_PREFIX = 'decidekit-store-';

const folders = new Set<string>();

/** A new folder in the system's temp folder, named `<prefix>XXXXXX`, kept track of until dropped. */
export function makeTempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}

/** Removes a temp folder and all it holds. */
export function dropTempFolder(dir: string): void {
  folders.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Removes every temp folder still in use (a process ending at once: a second Ctrl+C, an interrupted command). */
export function removeTempFolders(): void {
  for (const dir of [...folders]) dropTempFolder(dir);
}
