/** `tune` for people: the default / tuned / cross-validated table and the folds. Pure. */
import type { TuneReport } from '../../core/offline/threshold-tuning.js';
import {
  NOT_AVAILABLE,
  createPalette,
  renderTextRows,
  formatNumber,
  formatUsd,
  singleLine,
  type Palette,
} from '../format.js';
import type { TunedModel } from './tuning-json.js';

export interface TuneTextOptions {
  /** ANSI colour (only for a TTY without NO_COLOR). Default false. */
  readonly colour?: boolean;
}

const floorsSet = (r: TuneReport) => r.floors.minPrecision > 0 || r.floors.minRecall > 0;

function describeObjective(r: TuneReport): string {
  const goal =
    r.costs === null
      ? 'best F1'
      : `lowest expected error cost (false yes ${r.costs.falsePositive}, false no ${r.costs.falseNegative})`;
  const floors = floorsSet(r) ? ` with precision >= ${r.floors.minPrecision} and recall >= ${r.floors.minRecall}` : '';
  return `${goal}${floors}; ties: higher accuracy, then closer to 0.5`;
}

export function renderTuneText(t: TunedModel, options: TuneTextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const r = t.report;
  const cv = r.crossValidated;
  const out = [...tuneHeader(t, paint), ...thresholdTable(r, paint)];
  if (cv === null) {
    out.push(`  cross-validation: ${NOT_AVAILABLE} (${r.crossValidationSkipped ?? 'not run'})`);
    return `${out.join('\n')}\n`;
  }
  out.push(...foldTable(r, cv, paint));
  return `${out.join('\n')}\n`;
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The files, the cases and the rule. */
function tuneHeader(t: TunedModel, paint: Palette): string[] {
  const r = t.report;
  const out: string[] = [];
  out.push(paint.bold(`decidekit tune: ${singleLine(t.model)}`));
  out.push(`  dataset  ${singleLine(t.datasetPath)}`);
  out.push(`  results  ${singleLine(t.resultsPath)}`);
  out.push(
    `  cases    ${r.n} yes/no scored (${r.positives} yes, ${r.negatives} no), ${r.missing} missing; ${r.candidates} candidate thresholds`,
  );
  out.push(`  rule     ${describeObjective(r)}`);
  out.push('');

  return out;
}

/** The default, tuned and cross-validated thresholds side by side, with what they mean. */
function thresholdTable(r: TuneReport, paint: Palette): string[] {
  const cv = r.crossValidated;
  const withFloors = floorsSet(r);
  const withCost = r.costs !== null;
  const out: string[] = [];
  const header = ['', 'threshold', 'precision', 'recall', 'F1', 'accuracy', '$/100', '$/correct'];
  if (withCost) header.push('err cost/call');
  if (withFloors) header.push('floors');
  const row = (
    label: string,
    threshold: string,
    m: { precision: number; recall: number; f1: number; accuracy: number; errorCostPerCall: number | null },
    per100: number | null,
    perCorrect: number | null,
    floors: string,
  ) => {
    const cells = [
      label,
      threshold,
      formatNumber(m.precision),
      formatNumber(m.recall),
      formatNumber(m.f1),
      formatNumber(m.accuracy),
      formatUsd(per100),
      formatUsd(perCorrect),
    ];
    if (withCost) cells.push(formatNumber(m.errorCostPerCall));
    if (withFloors) cells.push(floors);
    return cells;
  };
  const rows: string[][] = [
    header,
    row(
      'default',
      formatNumber(r.default.threshold),
      r.default,
      r.default.costPer100Usd,
      r.default.costPerCorrectUsd,
      met(r.default.meetsFloors),
    ),
    row(
      r.floorsMet ? 'tuned' : 'tuned *',
      formatNumber(r.tuned.threshold),
      r.tuned,
      r.tuned.costPer100Usd,
      r.tuned.costPerCorrectUsd,
      met(r.tuned.meetsFloors),
    ),
  ];
  if (cv !== null) {
    const means = {
      precision: cv.precision.mean,
      recall: cv.recall.mean,
      f1: cv.f1.mean,
      accuracy: cv.accuracy.mean,
      errorCostPerCall: cv.errorCostPerCall?.mean ?? null,
    };
    rows.push(row('cross-validated', 'per fold', means, cv.costPer100Usd, cv.costPerCorrectUsd, ''));
  } else {
    const blank = header.slice(2).map(() => NOT_AVAILABLE);
    rows.push(['cross-validated', NOT_AVAILABLE, ...blank]);
  }
  const [head, ...body] = renderTextRows(rows, { indent: '  ' });
  out.push(paint.bold(head!), ...body);
  out.push('');
  if (!r.floorsMet) {
    out.push(
      paint.red(
        `  * no threshold meets precision >= ${r.floors.minPrecision} and recall >= ${r.floors.minRecall}: tuned shows the ${withCost ? 'lowest-cost' : 'best-F1'} threshold anyway`,
      ),
    );
  }
  out.push(
    paint.dim(
      '  tuned: chosen and scored on all the data (optimistic); cross-validated: chosen on the other folds, scored on the held-out one',
    ),
  );
  out.push(
    paint.dim(
      '  $/100: 100 x mean cost per call (saved scores, so equal at every threshold); $/correct: total cost / correct decisions',
    ),
  );
  out.push('');

  return out;
}

/** Each fold's threshold chosen on the other folds and scored on it, with the mean and sd. */
function foldTable(r: TuneReport, cv: NonNullable<TuneReport['crossValidated']>, paint: Palette): string[] {
  const withFloors = floorsSet(r);
  const withCost = r.costs !== null;
  const out: string[] = [];
  out.push(paint.bold(`Cross-validation: ${cv.k} stratified folds, seed ${cv.seed}`));
  const foldHeader = ['fold', 'threshold', 'n', 'precision', 'recall', 'F1', 'accuracy'];
  if (withCost) foldHeader.push('err cost/call');
  if (withFloors) foldHeader.push('floors (training)');
  const foldRows: string[][] = [foldHeader];
  for (const f of cv.folds) {
    const h = f.heldOut;
    const cells = [
      String(f.index + 1),
      formatNumber(f.threshold),
      String(h.n),
      formatNumber(h.precision),
      formatNumber(h.recall),
      formatNumber(h.f1),
      formatNumber(h.accuracy),
    ];
    if (withCost) cells.push(formatNumber(h.errorCostPerCall));
    if (withFloors) cells.push(met(f.floorsMetOnTraining));
    foldRows.push(cells);
  }
  const summary = (label: string, pick: (s: { mean: number; sd: number }) => number) => {
    const cells = [
      label,
      '',
      '',
      formatNumber(pick(cv.precision)),
      formatNumber(pick(cv.recall)),
      formatNumber(pick(cv.f1)),
      formatNumber(pick(cv.accuracy)),
    ];
    if (withCost) cells.push(cv.errorCostPerCall === null ? NOT_AVAILABLE : formatNumber(pick(cv.errorCostPerCall)));
    if (withFloors) cells.push('');
    return cells;
  };
  foldRows.push(
    summary('mean', (s) => s.mean),
    summary('sd', (s) => s.sd),
  );
  const [foldHead, ...foldBody] = renderTextRows(foldRows, { indent: '  ' });
  out.push(paint.bold(foldHead!), ...foldBody);
  return out;
}
