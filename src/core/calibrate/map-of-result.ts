/**
 * The map a calibration writes: its groups' parameters (or why each is unchanged), the
 * fitted data's hash, and the held-out numbers before and after for the record.
 */
import type { CalibrationMap } from '../calibration-map.js';
import type { MetricValues } from '../stats/bootstrap.js';
import type { CalibrationResult, HeldOutMetrics } from './cross-validate.js';

export function calibrationMapOf(result: CalibrationResult, dataSha256: string): CalibrationMap {
  return {
    method: result.method,
    by: result.by,
    source: result.source,
    groups: result.mapGroups,
    dataSha256,
    heldOut: {
      folds: result.folds,
      seed: result.seed,
      overall: heldOutJson(result.overall, result.source),
      groups: Object.fromEntries(result.groups.map((g) => [g.key, heldOutJson(g.heldOut, result.source)])),
    },
  };
}

function heldOutJson(h: HeldOutMetrics, source: CalibrationResult['source']): Record<string, unknown> {
  return { before: valuesJson(h.before.estimates, source), after: valuesJson(h.after.estimates, source) };
}

function valuesJson(v: MetricValues, source: CalibrationResult['source']): Record<string, number | null> {
  return {
    accuracy: v.accuracy,
    ...(source === 'bench' ? { kl: v.kl } : {}),
    brier: v.brier,
    log_loss: v.logLoss,
    ece: v.ece,
  };
}
