/** `calibrate --json`: every number unrounded, snake_case, absent numbers null. Pure. */
import type { CalibrationParameters } from '../../core/calibration-map.js';
import type { CalibrationRun, GroupCalibration, HeldOutMetrics } from '../../core/calibrate/cross-validate.js';
import { unchangedText } from '../../core/calibrate/fit-group.js';
import type { Interval, StatMetric } from '../../core/stats/bootstrap.js';
import { conventionsJson } from '../../core/stats/conventions.js';
import type { EceNoise } from '../../core/stats/noise-floor.js';

export function renderCalibrateJson(run: CalibrationRun, extra: { readonly mapPath?: string } = {}): string {
  const r = run.result;
  const doc = {
    model: run.model,
    fitted_on: run.fittedOn,
    method: r.method,
    by: r.by,
    source: r.source,
    folds: r.folds,
    seed: r.seed,
    cases: r.cases,
    skipped_decisions: run.skipped,
    data_sha256: run.map.dataSha256,
    map_path: extra.mapPath ?? null,
    groups: r.groups.map((g) => groupJson(g, r.source === 'bench')),
    overall: {
      held_out: heldOutJson(r.overall, r.source === 'bench'),
      fitted: valuesJson(r.overallFitted.estimates, r.source === 'bench'),
    },
    conventions: conventionsJson(r.conventions),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function groupJson(g: GroupCalibration, withKl: boolean): Record<string, unknown> {
  return {
    key: g.key,
    decisions: g.decisions,
    cases: g.cases,
    status: g.fit.status,
    parameters: g.fit.status === 'fitted' ? parametersJson(g.fit.parameters) : null,
    unchanged:
      g.fit.status === 'unchanged'
        ? { kind: g.fit.reason.kind, reason: unchangedText(g.fit.reason), ...reasonFields(g) }
        : null,
    unchanged_folds: g.unchangedFolds,
    held_out: heldOutJson(g.heldOut, withKl),
    fitted: valuesJson(g.fitted.estimates, withKl),
  };
}

function reasonFields(g: GroupCalibration): Record<string, number> {
  if (g.fit.status !== 'unchanged' || g.fit.reason.kind !== 'too_few') return {};
  return { decisions: g.fit.reason.decisions, needed: g.fit.reason.needed };
}

function parametersJson(p: CalibrationParameters): Record<string, unknown> {
  switch (p.method) {
    case 'temperature':
      return { method: p.method, temperature: p.temperature };
    case 'platt':
      return { method: p.method, a: p.a, b: p.b };
    case 'isotonic':
      return { method: p.method, steps: p.steps.map((s) => [s.x, s.y]) };
    case 'histogram':
      return { method: p.method, bins: p.bins };
    default:
      return assertNever(p);
  }
}

const METRICS: readonly (readonly [string, StatMetric])[] = [
  ['accuracy', 'accuracy'],
  ['kl', 'kl'],
  ['brier', 'brier'],
  ['log_loss', 'logLoss'],
  ['ece', 'ece'],
];

function heldOutJson(h: HeldOutMetrics, withKl: boolean): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [key, m] of METRICS) {
    if (m === 'kl' && !withKl) continue;
    const d = h.paired.metrics[m];
    metrics[key] = {
      before: h.before.estimates[m],
      before_ci: intervalJson(h.before.intervals[m]),
      after: h.after.estimates[m],
      after_ci: intervalJson(h.after.intervals[m]),
      difference: d.difference,
      difference_ci: intervalJson(d.interval),
      verdict: d.verdict,
    };
  }
  return {
    metrics,
    ece_noise_before: noiseJson(h.noiseBefore),
    ece_noise_after: noiseJson(h.noiseAfter),
    reliability_before: h.reliabilityBefore.bins,
    reliability_after: h.reliabilityAfter.bins,
  };
}

function valuesJson(v: Readonly<Record<StatMetric, number | null>>, withKl: boolean): Record<string, number | null> {
  return {
    accuracy: v.accuracy,
    ...(withKl ? { kl: v.kl } : {}),
    brier: v.brier,
    log_loss: v.logLoss,
    ece: v.ece,
  };
}

function intervalJson(i: Interval | null): [number, number] | null {
  return i === null ? null : [i.low, i.high];
}

function noiseJson(n: EceNoise | null): Record<string, unknown> | null {
  if (n === null) return null;
  return { mean: n.mean, p95: n.p95, p95_upper: n.p95Upper, simulations: n.simulations, within_noise: n.withinNoise };
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected value: ${JSON.stringify(x)}`);
}
