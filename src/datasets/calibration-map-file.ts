/**
 * Reads a calibration map file (`--calibration MAP`) and hashes it: the hash goes into a
 * run's config and fingerprint and into every report that applies the map.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import type { CalibrationMap } from '../core/calibration-map.js';
import { parseCalibrationMapText } from '../core/calibration-map-file.js';
import { refuseIrregularFile } from './input-file.js';

/** A map as read: the map, its file and the sha256 of its bytes. */
export interface LoadedCalibrationMap {
  readonly path: string;
  readonly sha256: string;
  readonly map: CalibrationMap;
}

export async function loadCalibrationMap(path: string): Promise<LoadedCalibrationMap> {
  let bytes: Buffer;
  try {
    await refuseIrregularFile(path);
    bytes = await readFile(path);
  } catch (err) {
    throw new DecidekitError('file_unreadable', `cannot read calibration map: ${path} (${fileErrorWords(err)})`, {
      context: { file: path },
      cause: err,
    });
  }
  const map = parseCalibrationMapText(bytes.toString('utf8'), path);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex'), map };
}
