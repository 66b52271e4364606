/** `tune` for people: the default / tuned / cross-validated table and the folds. Pure. */
import type { TuneReport } from '../../core/offline/threshold-tuning.js';
import { NOT_AVAILABLE, createPalette, formatNumber, formatUsd, singleLine, type Palette } from '../format.js';
import { renderFittedTable, renderRowsWrappingLast, wrapIndented } from '../text-fit.js';
import type { TunedModel, TunedRun } from './tuning-json.js';
import type { Interval } from '../../core/stats/bootstrap.js';
import type { Ranking } from '../../core/stats/ranking.js';

export interface TuneTextOptions {
  /** ANSI colour (only for a TTY without NO_COLOR). Default false. */
  readonly colour?: boolean;
  /** The terminal's columns: `tune`'s lines fit them. Default none (a file or pipe: lines whole). */
  readonly width?: number;
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
  const width = options.width ?? Infinity;
  const out = [...tuneHeader(t, width, paint), ...thresholdTable(r, width, paint)];
  if (cv === null) {
    out.push(
      ...wrapIndented(`cross-validation: ${NOT_AVAILABLE} (${r.crossValidationSkipped ?? 'not run'})`, width, '  '),
    );
    return `${out.join('\n')}\n`;
  }
  out.push(...foldTable(r, cv, width, paint));
  return `${out.join('\n')}\n`;
}

/** AUC and AP in one line: what no threshold can change. */
function describeRanking(k: Ranking): string {
  const with95 = (v: number | null, i: Interval | null) =>
    i === null ? formatNumber(v) : `${formatNumber(v)} [${formatNumber(i.low)}, ${formatNumber(i.high)}]`;
  return `ROC AUC ${with95(k.auc, k.aucInterval)}, average precision ${with95(k.averagePrecision, k.averagePrecisionInterval)} (no threshold changes them)`;
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The files, the cases and the rule. */
function tuneHeader(t: TunedModel, width: number, paint: Palette): string[] {
  const r = t.report;
  const out: string[] = [];
  out.push(...wrapIndented(`decidekit tune: ${singleLine(t.model)}`, width, '').map(paint.bold));
  out.push(
    ...renderRowsWrappingLast(
      [
        ['dataset', singleLine(t.datasetPath)],
        ['results', singleLine(t.resultsPath)],
        [
          'cases',
          `${r.n} yes/no scored (${r.positives} yes, ${r.negatives} no), ${r.missing} missing; ${r.candidates} candidate thresholds`,
        ],
        ['rule', describeObjective(r)],
        ...(t.ranking == null ? [] : [['ranking', describeRanking(t.ranking)]]),
      ],
      width,
      { indent: '  ', align: ['left', 'left'] },
    ),
  );
  out.push('');

  return out;
}

/** The default, tuned and cross-validated thresholds side by side, with what they mean. */
function thresholdTable(r: TuneReport, width: number, paint: Palette): string[] {
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
  out.push(...renderFittedTable(header, rows, width, { indent: '  ', styleHeader: paint.bold }));
  out.push('');
  if (!r.floorsMet) {
    out.push(
      ...wrapIndented(
        `* no threshold meets precision >= ${r.floors.minPrecision} and recall >= ${r.floors.minRecall}: tuned shows the ${withCost ? 'lowest-cost' : 'best-F1'} threshold anyway`,
        width,
        '  ',
      ).map(paint.red),
    );
  }
  out.push(
    ...wrapIndented(
      'tuned: chosen and scored on all the data (optimistic); cross-validated: chosen on the other folds, scored on the held-out one',
      width,
      '  ',
    ).map(paint.dim),
  );
  out.push(
    ...wrapIndented(
      '$/100: 100 x mean cost per call (saved scores, so equal at every threshold); $/correct: total cost / correct decisions',
      width,
      '  ',
    ).map(paint.dim),
  );
  out.push('');

  return out;
}

/** Each fold's threshold chosen on the other folds and scored on it, with the mean and sd. */
function foldTable(
  r: TuneReport,
  cv: NonNullable<TuneReport['crossValidated']>,
  width: number,
  paint: Palette,
): string[] {
  const withFloors = floorsSet(r);
  const withCost = r.costs !== null;
  const out: string[] = [];
  out.push(...wrapIndented(`Cross-validation: ${cv.k} stratified folds, seed ${cv.seed}`, width, '').map(paint.bold));
  const foldHeader = ['fold', 'threshold', 'n', 'precision', 'recall', 'F1', 'accuracy'];
  if (withCost) foldHeader.push('err cost/call');
  if (withFloors) foldHeader.push('floors (training)');
  const foldRows: string[][] = [];
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
  out.push(...renderFittedTable(foldHeader, foldRows, width, { indent: '  ', styleHeader: paint.bold }));
  return out;
}

/** `tune RUN` for people: each yes/no question of the run tuned on its own, or why not. */
export function renderTunedRunText(t: TunedRun, options: TuneTextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const width = options.width ?? Infinity;
  const out = [
    ...wrapIndented(
      `decidekit tune: run ${singleLine(t.runId)} (${singleLine(t.model)}, ${singleLine(t.dataset)})`,
      width,
      '',
    ).map(paint.bold),
    ...wrapIndented(
      t.questions.length === 0
        ? 'the run has no yes/no (noul) question: nothing to tune'
        : `${t.questions.length} yes/no question(s), each tuned on its own; a decision is yes when its gold label (the dataset's most likely answer) is true`,
      width,
      '  ',
    ),
    '',
  ];
  for (const q of t.questions) {
    if ('skipped' in q) {
      out.push(...wrapIndented(`${singleLine(q.question)}: not tuned (${singleLine(q.skipped)})`, width, ''), '');
      continue;
    }
    out.push(renderTuneText(q.tuned, options));
  }
  return `${out.join('\n')}\n`;
}
