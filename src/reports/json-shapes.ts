/**
 * The JSON shapes of the core values that several documents share, each written once.
 * Every JSON document decidekit writes uses snake_case keys in a fixed order (docs/file-formats.md);
 * core objects are never serialised directly, so renaming a field in the core cannot rename
 * a key users read. Keys that are data (workflow, question and answer names, failure kinds)
 * are kept as they are.
 */
import type { DatasetInfo } from '../core/typed-decisions/dataset-info.js';
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import type { ReliabilityBin } from '../core/calibration.js';
import type { Interval } from '../core/stats/bootstrap.js';
import type { EceNoise } from '../core/stats/noise-floor.js';
import type { Ranking } from '../core/stats/ranking.js';
import { redactedIdentity } from '../protocol/wire/endpoint.js';
import type { AppliedCalibration } from '../core/calibration-map.js';

/** The map a report's numbers were recalibrated with (`--calibration MAP`). */
export function calibrationJson(c: AppliedCalibration) {
  return { path: c.path, sha256: c.sha256, method: c.method, by: c.by, recalibrated: true };
}

/** A record with its keys sorted (data keys such as workflow names), values mapped. */
export function sortedRecordJson<V, R>(record: Readonly<Record<string, V>>, map: (v: V) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const key of Object.keys(record).sort()) out[key] = map(record[key]!);
  return out;
}

/**
 * `null_reasons`: for each null metric of a document's object, why it is null (its key in
 * snake_case); present only when some metric is null, so a null always carries its reason.
 */
export function nullReasonsJson(reasons: Readonly<Record<string, string | undefined>>): {
  null_reasons?: Record<string, string>;
} {
  const out: Record<string, string> = {};
  for (const [key, reason] of Object.entries(reasons))
    if (reason !== undefined) out[key.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)] = reason;
  return Object.keys(out).length === 0 ? {} : { null_reasons: out };
}

export function reliabilityBinJson(b: ReliabilityBin) {
  return {
    index: b.index,
    lower: b.lower,
    upper: b.upper,
    n: b.n,
    mean_confidence: b.meanConfidence,
    accuracy: b.accuracy,
    gap: b.gap,
  };
}

export function endpointJson(e: EndpointIdentity, redactHost = false) {
  const shown = redactHost ? redactedIdentity(e) : e;
  return { scheme: shown.scheme, host: shown.host, port: shown.port, path: shown.path };
}

export function datasetJson(d: DatasetInfo) {
  return {
    id: d.id,
    revision: d.revision,
    split: d.split,
    license: d.license,
    synthetic: d.synthetic,
    attribution: d.attribution,
    url: d.url,
  };
}

/** A 95% interval as `[low, high]` (the `<metric>_ci` keys), null when absent. */
export function intervalJson(i: Interval | null | undefined): [number, number] | null {
  return i === null || i === undefined ? null : [i.low, i.high];
}

/** The ECE noise floor (`ece_noise_floor`), null when absent. */
export function noiseFloorJson(f: EceNoise | null | undefined) {
  return f === null || f === undefined
    ? null
    : {
        mean: f.mean,
        p95: f.p95,
        // Runs stored before the tie rule kept no upper end and no tie.
        ...((f.p95Upper as number | undefined) === undefined ? {} : { p95_upper: f.p95Upper }),
        simulations: f.simulations,
        within_noise: f.withinNoise,
        ...(f.tie === undefined ? {} : { tie: f.tie }),
      };
}

/**
 * The ranking metrics of yes/no decisions (`ranking`): ROC AUC and average precision with
 * their 95% intervals (null without one), and the class counts they are over.
 */
export function rankingJson(r: Ranking) {
  return {
    positives: r.positives,
    negatives: r.negatives,
    roc_auc: r.auc,
    roc_auc_ci: intervalJson(r.aucInterval),
    average_precision: r.averagePrecision,
    average_precision_ci: intervalJson(r.averagePrecisionInterval),
  };
}
