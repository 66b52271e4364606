import { progressRates, type ProgressRates, type RunProgress } from '../../core/bench/progress.js';
import { createPalette, formatCount, formatDuration, formatPercent, plural, visibleWidth } from '../format.js';

/** The progress the renderers draw (the runner's own count). */
export type ProgressState = RunProgress;

function describeRate(rates: ProgressRates, unit = 'decisions/min'): string {
  return `${rates.decisionsPerMinute === null ? 'n/a' : formatCount(rates.decisionsPerMinute)} ${unit}`;
}

function describeEta(rates: ProgressRates): string {
  return `ETA ${rates.etaMs === null ? 'n/a' : formatDuration(rates.etaMs)}`;
}

const BAR_FULL = '█';
const BAR_EMPTY = '░';
const MIN_BAR_CELLS = 10;

/**
 * One line for a terminal, at most `width` columns when `width` allows a ten-cell bar:
 * `[█████░░░░░] 1,000/2,000 decisions 50.0% · 200/400 cases · 250 decisions/min · 3 errors · ETA 4 min 00 s`.
 * The bar takes whatever width the text leaves; low-priority parts are dropped first when narrow.
 */
export function renderProgressBar(state: ProgressState, width: number, colour: boolean): string {
  const paint = createPalette(colour);
  const rates = progressRates(state);
  const errors = plural(state.errors, 'error', 'errors', formatCount);
  // Always shown: decisions done / total, the rate, the ETA and the errors. When the line is
  // too narrow, the case count goes first, then the percentage, then the words of the units,
  // then bar cells (down to a minimum).
  const optional = [
    `${formatCount(state.casesDone)}/${formatCount(state.casesTotal)} cases`,
    formatPercent(rates.fraction),
  ];
  let compact = false;
  const parts = (): string[] => [
    `${formatCount(state.decisionsDone)}/${formatCount(state.decisionsTotal)}${compact ? '' : ' decisions'}`,
    ...optional.slice().reverse(),
    compact
      ? `${rates.decisionsPerMinute === null ? 'n/a' : formatCount(rates.decisionsPerMinute)}/min`
      : describeRate(rates),
    describeEta(rates),
  ];
  const lineWidth = (): number => 3 + MIN_BAR_CELLS + visibleWidth([...parts(), errors].join(' · '));
  while (optional.length > 0 && lineWidth() > width) optional.shift();
  if (lineWidth() > width) compact = true;
  const text = [...parts(), state.errors > 0 ? paint.red(errors) : errors].join(' · ');
  const cells = Math.max(compact ? 4 : MIN_BAR_CELLS, width - 3 - visibleWidth(text));
  const filled = rates.fraction === null ? 0 : Math.min(cells, Math.floor(rates.fraction * cells));
  const bar = paint.green(BAR_FULL.repeat(filled)) + paint.dim(BAR_EMPTY.repeat(cells - filled));
  return `[${bar}] ${text}`;
}

/** A plain periodic line for a log (no colour, no carriage return), without a trailing newline. */
export function renderProgressLine(state: ProgressState): string {
  const rates = progressRates(state);
  return [
    `progress: ${formatCount(state.decisionsDone)}/${formatCount(state.decisionsTotal)} decisions (${formatPercent(rates.fraction)})`,
    `${formatCount(state.casesDone)}/${formatCount(state.casesTotal)} cases`,
    describeRate(rates),
    plural(state.errors, 'error', 'errors', formatCount),
    `elapsed ${formatDuration(state.elapsedMs)}`,
    describeEta(rates),
  ].join(', ');
}

/**
 * One JSON line (without the newline) for `--json` mode on stderr. Keys are stable snake_case; rates
 * are unrounded and null while unknown.
 */
export function renderProgressEvent(state: ProgressState): string {
  const rates = progressRates(state);
  return JSON.stringify({
    event: 'progress',
    cases_done: state.casesDone,
    cases_total: state.casesTotal,
    decisions_done: state.decisionsDone,
    decisions_total: state.decisionsTotal,
    errors: state.errors,
    elapsed_ms: state.elapsedMs,
    decisions_per_minute: rates.decisionsPerMinute,
    eta_ms: rates.etaMs,
  });
}
