/** The folder a use case writes its reports into (bench, audit, probe), refused early when unusable. */
import { outputFileOf, prepareOutputPath, type ReadFile } from './output-file.js';

/** The reports a use case will write when their run's id is known before the work (a resumed run). */
export interface KnownReports {
  /** The run's id: the reports are `<id>.<extension>`. */
  readonly id: string;
  readonly extensions: readonly string[];
  /** The files the command reads (the run store, its inputs): no report may be one of them. */
  readonly inputs: readonly ReadFile[];
}

/**
 * Refuses, before any request is sent, an `outDir` that is not a writable folder and cannot be
 * made one (the one rule of every output path, app/output-file.ts), so a long run never ends
 * in a write error that could have been seen at the start. When the run's id is known, each
 * report file it will get is checked too: never a file the command reads (the store named
 * `<id>.json` in that folder), never a link or a device.
 */
export async function refuseUnusableOutDir(dir: string, known?: KnownReports): Promise<void> {
  const place = await prepareOutputPath(dir, 'outDir', { folderOnly: true, inputs: known?.inputs ?? [] });
  if (known !== undefined) for (const extension of known.extensions) outputFileOf(place, `${known.id}.${extension}`);
}
