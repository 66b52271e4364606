/**
 * `score --calibration MAP` and `compare --calibration MAP`: a map written by `calibrate`,
 * checked against the dataset (every yes/no and choice case needs its group in the map) and
 * turned into the recalibration the scoring applies before it scores each decision.
 */
import { applyCalibration, type AppliedCalibration, type CalibrationParameters } from '../../core/calibration-map.js';
import { calibrationGroupOf, missingGroupsText } from '../../core/calibration-map-file.js';
import { DecidekitError } from '../../core/errors.js';
import { loadCalibrationMap, type LoadedCalibrationMap } from '../../datasets/calibration-map-file.js';
import type { DecisionRecalibration } from '../../datasets/offline/results.js';
import type { OfflineDataset } from '../../datasets/offline/dataset.js';

export interface OfflineRecalibration {
  readonly applied: AppliedCalibration;
  readonly recalibration: DecisionRecalibration;
}

export async function loadOfflineRecalibration(path: string): Promise<LoadedCalibrationMap> {
  const loaded = await loadCalibrationMap(path);
  if (loaded.map.source !== 'offline')
    throw new DecidekitError(
      'calibration_map',
      `calibration map ${path} was fitted on a stored benchmark run: score and compare apply maps fitted on offline answers (fit one on them with decidekit calibrate)`,
    );
  return loaded;
}

/** The map's parameters for each case of the dataset; refuses a map that lacks a group the dataset has. */
export function offlineRecalibrationOf(loaded: LoadedCalibrationMap, dataset: OfflineDataset): OfflineRecalibration {
  const { map } = loaded;
  const byKey = new Map(map.groups.map((g) => [g.key, g.parameters]));
  const cases = dataset.cases;
  const needed: string[] = [];
  const parameters = cases.map((c): CalibrationParameters | null => {
    if (c.kind === 'score') return null;
    const key = calibrationGroupOf(map.by, c.kind, c.prompt ?? '');
    if (!byKey.has(key)) needed.push(key);
    return byKey.get(key) ?? null;
  });
  const missing = missingGroupsText(map, needed, (k) =>
    map.by === 'type' ? `question type ${JSON.stringify(k)}` : `question ${JSON.stringify(k)}`,
  );
  if (missing !== null)
    throw new DecidekitError(
      'calibration_map',
      `calibration map ${loaded.path} does not fit dataset ${dataset.path}: ${missing}; fit a map on this dataset with decidekit calibrate`,
    );
  return {
    applied: { path: loaded.path, sha256: loaded.sha256, method: map.method, by: map.by },
    recalibration: {
      yesNo(i, p) {
        const params = parameters[i];
        return params == null ? p : applyCalibration(params, [p, 1 - p])[0]!;
      },
      choice(i, p) {
        const params = parameters[i];
        return params == null ? p : applyCalibration(params, p);
      },
    },
  };
}
