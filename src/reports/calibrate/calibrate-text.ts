/**
 * `calibrate` for people: per group, the fitted parameters (or why the group is left
 * unchanged), the held-out metrics before and after with their intervals and paired
 * verdicts, the ECE noise floor, and the reliability table before and after. Pure.
 */
import type { CalibrationParameters } from '../../core/calibration-map.js';
import type { CalibrationRun, GroupCalibration, HeldOutMetrics } from '../../core/calibrate/cross-validate.js';
import { unchangedText } from '../../core/calibrate/fit-group.js';
import type { Calibration } from '../../core/calibration.js';
import type { Interval, StatMetric } from '../../core/stats/bootstrap.js';
import { describeEceVerdict } from '../ece-verdict.js';
import {
  NOT_AVAILABLE,
  createPalette,
  formatNumber,
  formatSigned,
  plural,
  renderTextTable,
  singleLine,
} from '../format.js';
import { fitsOr, renderRecords, wrapIndented, wrapStyled } from '../text-fit.js';

export interface CalibrateTextOptions {
  readonly colour?: boolean;
  readonly width?: number;
}

const VERDICT_TEXT = { better: 'better', worse: 'worse', within_noise: 'within noise' } as const;

export function renderCalibrateText(run: CalibrationRun, options: CalibrateTextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const width = options.width ?? Infinity;
  const r = run.result;
  const out: string[] = [];
  const say = (...lines: string[]): void => {
    out.push(...lines.flatMap((l) => wrapStyled(l, width)));
  };
  const decisions = r.groups.reduce((s, g) => s + g.decisions, 0);
  say(
    paint.bold(`Calibration of ${singleLine(run.model ?? 'the model')}: ${r.method}, by ${r.by}`),
    `Fitted on ${singleLine(run.fittedOn)}: ${plural(decisions, 'decision')} in ${plural(r.cases, 'case')}` +
      (run.skipped > 0
        ? ` (${plural(run.skipped, r.source === 'bench' ? 'failed decision' : 'score decision')} not calibrated)`
        : '') +
      `. Held out: ${r.folds} folds by case, seed ${r.seed}; each fold is scored with the fit on the others.`,
  );
  for (const g of r.groups) {
    say(
      '',
      paint.bold(`Group ${JSON.stringify(g.key)}: ${plural(g.decisions, 'decision')}, ${plural(g.cases, 'case')}`),
    );
    say(`  ${fitText(g)}`);
    if (g.unchangedFolds > 0 && g.fit.status === 'fitted')
      say(
        `  ${plural(g.unchangedFolds, 'fold')} of ${r.folds} could not be fitted on the others and kept the answers as they were.`,
      );
    out.push(...heldOutLines(g.heldOut, r.source === 'bench', width));
  }
  if (r.groups.length > 1) {
    say('', paint.bold('All groups together (held out)'));
    out.push(...heldOutLines(r.overall, r.source === 'bench', width));
  }
  say(
    '',
    'How to read this: numbers are on held-out folds, before and after the fit; [low, high] is a 95% interval from resampling cases; a verdict is better or worse only when the paired interval of after - before excludes 0 (higher accuracy, lower ' +
      (r.source === 'bench' ? 'KL, ' : '') +
      'Brier, log loss and ECE are better). The map holds the fit on all the data.',
  );
  return `${out.join('\n')}\n`;
}

/** The fitted parameters in words, or why the group is unchanged. */
export function fitText(g: GroupCalibration): string {
  if (g.fit.status === 'unchanged') return `left unchanged: ${unchangedText(g.fit.reason)}`;
  return parametersText(g.fit.parameters);
}

export function parametersText(p: CalibrationParameters): string {
  switch (p.method) {
    case 'temperature':
      return `temperature ${formatNumber(p.temperature)} (${p.temperature > 1 ? 'softens: the answers were over-confident' : p.temperature < 1 ? 'sharpens: the answers were under-confident' : 'no change'})`;
    case 'platt':
      return `Platt a ${formatNumber(p.a)}, b ${formatNumber(p.b)} (P = sigmoid(a · logit p + b))`;
    case 'isotonic':
      return `isotonic, ${plural(p.steps.length, 'step')}: ${p.steps
        .slice(0, 8)
        .map((s) => `from ${formatNumber(s.x)} → ${formatNumber(s.y)}`)
        .join(', ')}${p.steps.length > 8 ? ', …' : ''}`;
    case 'histogram':
      return `histogram binning, ${p.bins.length} bins: ${p.bins.map((b) => (b === null ? '-' : formatNumber(b, 2))).join(' ')}`;
    default:
      return assertNever(p);
  }
}

const ROWS: readonly (readonly [string, StatMetric])[] = [
  ['Accuracy', 'accuracy'],
  ['KL', 'kl'],
  ['Brier', 'brier'],
  ['Log loss', 'logLoss'],
  ['ECE', 'ece'],
];

const HELD_OUT_HEADER = [
  'Held out',
  'Before',
  '95% interval',
  'After',
  '95% interval',
  'After - before',
  '95% interval',
  'Verdict',
];
const HELD_OUT_RECORD = [
  'Held out',
  'Before',
  'interval before',
  'After',
  'interval after',
  'After - before',
  'its interval',
  'Verdict',
];
const HELD_OUT_LAYOUT = {
  indent: '  ',
  align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
} as const;

/** The held-out table, the noise floor and the reliability table; a table too wide for `width` shows one record a row. */
function heldOutLines(h: HeldOutMetrics, withKl: boolean, width: number): string[] {
  const rows = ROWS.filter(([, m]) => withKl || m !== 'kl').map(([label, m]) => {
    const d = h.paired.metrics[m];
    return [
      label,
      formatNumber(h.before.estimates[m]),
      formatInterval(h.before.intervals[m]),
      formatNumber(h.after.estimates[m]),
      formatInterval(h.after.intervals[m]),
      formatSigned(d.difference),
      formatInterval(d.interval, true),
      d.verdict === null ? NOT_AVAILABLE : VERDICT_TEXT[d.verdict],
    ];
  });
  const lines = [
    '',
    // A record a row names each interval's side, which the table says by column order.
    ...fitsOr(renderTextTable(HELD_OUT_HEADER, rows, HELD_OUT_LAYOUT), width, () =>
      renderRecords(HELD_OUT_RECORD, rows, width, HELD_OUT_LAYOUT),
    ),
  ];
  const noise = (label: string, n: HeldOutMetrics['noiseBefore']): string =>
    n === null
      ? `${label} n/a`
      : `${label} ${describeEceVerdict(n)} (a calibrated model would show ${formatNumber(n.mean)}, 95th percentile ${formatNumber(n.p95)})`;
  lines.push(
    '',
    ...wrapIndented(`ECE noise floor: ${noise('before', h.noiseBefore)}; ${noise('after', h.noiseAfter)}`, width, '  '),
  );
  lines.push('', ...reliabilityLines(h.reliabilityBefore, h.reliabilityAfter, width));
  return lines;
}

/** The reliability table before and after, bin by bin (held-out answers). */
function reliabilityLines(before: Calibration, after: Calibration, width: number): string[] {
  const indices = [...new Set([...before.bins, ...after.bins].map((b) => b.index))].sort((a, b) => a - b);
  const rows = indices.map((i) => {
    const b = before.bins.find((x) => x.index === i);
    const a = after.bins.find((x) => x.index === i);
    const range = (b ?? a)!;
    return [
      `${range.lower.toFixed(1)}–${range.upper.toFixed(1)}`,
      b === undefined ? '' : String(b.n),
      b === undefined ? '' : formatNumber(b.meanConfidence),
      b === undefined ? '' : formatNumber(b.accuracy),
      a === undefined ? '' : String(a.n),
      a === undefined ? '' : formatNumber(a.meanConfidence),
      a === undefined ? '' : formatNumber(a.accuracy),
    ];
  });
  const options = { indent: '  ', align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'] } as const;
  // A record a row names each value's side, which the table says by column order.
  return fitsOr(
    renderTextTable(
      ['Reliability', 'n before', 'confidence', 'accuracy', 'n after', 'confidence', 'accuracy'],
      rows,
      options,
    ),
    width,
    () =>
      renderRecords(
        [
          'Reliability',
          'n before',
          'confidence before',
          'accuracy before',
          'n after',
          'confidence after',
          'accuracy after',
        ],
        rows,
        width,
        options,
      ),
  );
}

function formatInterval(i: Interval | null, signed = false): string {
  if (i === null) return 'no interval';
  const f = signed ? formatSigned : formatNumber;
  return `[${f(i.low)}, ${f(i.high)}]`;
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected value: ${JSON.stringify(x)}`);
}
