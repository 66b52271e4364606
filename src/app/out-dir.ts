/** The folder a use case writes its reports into (bench, audit, probe), refused early when unusable. */
import { prepareOutputPath } from './output-file.js';

/**
 * Refuses, before any request is sent, an `outDir` that is not a writable folder and cannot be
 * made one (the one rule of every output path, app/output-file.ts), so a long run never ends
 * in a write error that could have been seen at the start.
 */
export async function refuseUnusableOutDir(dir: string): Promise<void> {
  await prepareOutputPath(dir, 'outDir', { folderOnly: true });
}
