/**
 * Temp folders holding a copy of a store being read (a read-only folder, or a store too old
 * to read in place), kept track of (`store/temp-folders.ts`) so a process ending at once can
 * remove them: its readers' own clean-up does not run then. No SQLite here: the process entry
 * imports it.
 */
import { dropTempFolder, makeTempFolder, removeTempFolders } from '../temp-folders.js';

/** A new temp folder for a copy of a store. */
export function makeCopyDir(): string {
  return makeTempFolder('decidekit-store-');
}

/** Removes a copy's folder. */
export function dropCopyDir(dir: string): void {
  dropTempFolder(dir);
}

/**
 * Removes every copy still being read, and every other temp folder of work under way (a
 * Parquet export's): a process ending at once (a second Ctrl+C, an interrupted command).
 */
export function removeTemporaryCopies(): void {
  removeTempFolders();
}
