/**
 * The live screen as a pure function: `renderLive(state, size)` returns exactly `size.rows`
 * lines, none wider than `size.columns`. Panels: now, quality, by question type, confidence
 * histogram, server; a header, a status line (banners) and a footer crediting the dataset.
 * The layout uses two columns from 60 columns and gives spare rows to the histogram; on a
 * short screen panels give up their least important lines first.
 */
import type { Decision } from '../core/typed-decisions/case-result.js';
import {
  createPalette,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  renderBar,
  singleLine,
  type Palette,
} from '../reports/format.js';
import { QUESTION_TYPES } from '../core/question.js';
import {
  isUnreachable,
  serverStaleForMs,
  sessionAccuracy,
  typeAccuracy,
  type LiveState,
  type TerminalSize,
} from './live-state.js';
import { EIGHTHS, clipLine, fitLine, sparkline, spread } from './screen-text.js';

export interface RenderLiveOptions {
  /** ANSI colours (off under NO_COLOR or when not a terminal). */
  readonly colour: boolean;
}

/** The smallest screen the panels are drawn on; below it, one line says so. */
export const MIN_SIZE: TerminalSize = { columns: 40, rows: 12 };
const TWO_COLUMNS_FROM = 60;

/** A line and how much it matters when rows are short (higher stays longer). */
interface Row {
  readonly text: string;
  readonly keep: number;
}

interface Panel {
  /** Lines at the given height (title first); exactly `height` lines, each fitted to `width`. */
  lines(width: number, height: number): string[];
  readonly desired: number;
  readonly min: number;
}

export function renderLive(state: LiveState, size: TerminalSize, options: RenderLiveOptions): string[] {
  const { columns, rows } = size;
  const p = createPalette(options.colour);
  if (columns < MIN_SIZE.columns || rows < MIN_SIZE.rows) {
    const note = [
      `decidekit live: the window is ${columns}x${rows}; the panels need ${MIN_SIZE.columns}x${MIN_SIZE.rows}`,
      `probes ${state.polls}, window accuracy ${formatPercent(state.summary.accuracy)}`,
      'q quit · Ctrl+R reset',
    ];
    return Array.from({ length: Math.max(0, rows) }, (_, i) => clipLine(note[i] ?? '', Math.max(0, columns)));
  }
  const header = spread(
    `${p.bold('decidekit live')} · ${state.info.model ?? 'default model'} @ ${state.info.target}${state.info.embedded ? ' (built-in)' : ''}`,
    p.dim('q quit · ^R reset'),
    columns,
  );
  const footer = p.dim(`data: ${state.info.datasetCredit}`);

  const two = columns >= TWO_COLUMNS_FROM;
  const left = two ? Math.floor((columns - 1) / 2) : columns;
  const right = two ? columns - left - 1 : columns;
  const now = nowPanel(state, p);
  const quality = qualityPanel(state, p);
  const types = typesPanel(state, p);
  const histogram = histogramPanel(state, p);
  const server = serverPanel(state, p);
  const blocks = two
    ? [{ panels: [now], h: now.desired, min: now.min }, pair(quality, types), pair(histogram, server)]
    : [now, quality, types, histogram, server].map((x) => ({ panels: [x], h: x.desired, min: x.min }));
  const available = rows - 3;
  // Short screen: take lines from the lower panels first, then from "now", down to their minimums.
  let excess = blocks.reduce((n, b) => n + b.h, 0) - available;
  for (const b of [...blocks.slice(1).reverse(), blocks[0]!]) {
    const take = Math.min(Math.max(0, excess), b.h - b.min);
    b.h -= take;
    excess -= take;
  }
  // Tall screen: the histogram (last-but-one block) grows to one row per bin.
  const spare = available - blocks.reduce((n, b) => n + b.h, 0);
  const histogramBlock = blocks.find((b) => b.panels.includes(histogram))!;
  if (spare > 0) histogramBlock.h += Math.min(spare, Math.max(0, HISTOGRAM_TALL - histogramBlock.h));

  // Still more room: the most recent polls, newest first.
  const room = available - blocks.reduce((n, b) => n + b.h, 0);
  if (room >= 3 && state.recent.length > 0) {
    const recent = recentPanel(state, p);
    blocks.push({ panels: [recent], h: room, min: room });
  }

  const body: string[] = [];
  for (const b of blocks) {
    if (b.h <= 0) continue;
    if (b.panels.length === 1) body.push(...b.panels[0]!.lines(columns, b.h));
    else {
      const l = b.panels[0]!.lines(left, b.h);
      const r = b.panels[1]!.lines(right, b.h);
      for (let i = 0; i < b.h; i++) body.push(`${l[i]}${p.dim('│')}${r[i]}`);
    }
  }
  const screen = [header, statusLine(state, p, columns), ...body.slice(0, available)];
  while (screen.length < rows - 1) screen.push('');
  screen.push(footer);
  return screen.map((line) => clipLine(line, columns));
}

function pair(a: Panel, b: Panel) {
  return { panels: [a, b], h: Math.max(a.desired, b.desired), min: Math.max(a.min, b.min) };
}

function statusLine(state: LiveState, p: Palette, width: number): string {
  if (isUnreachable(state))
    return p.red(
      p.bold(
        `model unreachable: ${state.failureStreak} failed probes in a row; last error: ${singleLine(state.lastError ?? 'unknown')}; still probing`,
      ),
    );
  if (state.banner !== null) return p.yellow(p.bold(`! ${state.banner.text}`));
  const up = formatDuration(state.nowMs - state.sessionStartMs);
  return p.dim(
    clipLine(
      `probe ${formatCount(state.polls)}${state.failedPolls > 0 ? ` (${formatCount(state.failedPolls)} failed)` : ''} · every ${formatNumber(state.info.intervalMs / 1000, 2).replace(/\.?0+$/, '')} s · session ${up} · ${formatCount(state.info.cases)} cases cycling`,
      width,
    ),
  );
}

/** Builds a panel from a title and prioritized rows; blank rows pad it to its height. */
function panel(title: string, rows: readonly Row[], p: Palette, min: number): Panel {
  return {
    desired: rows.length + 1,
    min: Math.min(min, rows.length + 1),
    lines(width, height) {
      const kept = [...rows];
      while (kept.length > height - 1) {
        let drop = kept.length - 1;
        for (let i = kept.length - 1; i >= 0; i--) if (kept[i]!.keep < kept[drop]!.keep) drop = i;
        kept.splice(drop, 1);
      }
      const head = `── ${title} `;
      const out = [p.bold(fitLine(head + '─'.repeat(Math.max(0, width - head.length)), width))];
      for (const r of kept) out.push(fitLine(` ${r.text}`, width));
      while (out.length < height) out.push(' '.repeat(width));
      return out.slice(0, Math.max(0, height));
    },
  };
}

/** A panel whose rows depend on the width and height it is given. */
function flexiblePanel(
  title: string | ((width: number) => string),
  desired: number,
  min: number,
  p: Palette,
  rowsFor: (innerWidth: number, bodyRows: number) => Row[],
): Panel {
  return {
    desired,
    min,
    lines: (width, height) =>
      panel(typeof title === 'string' ? title : title(width), rowsFor(width - 1, height - 1), p, min).lines(
        width,
        height,
      ),
  };
}

function nowPanel(state: LiveState, p: Palette): Panel {
  const latest = state.latest;
  if (latest === null) return panel('now', [{ text: p.dim('waiting for the first probe…'), keep: 9 }], p, 2);
  const { result } = latest;
  const rows: Row[] = [];
  const request = result.request;
  if (request.status === 'answered') {
    const tokens =
      request.inputTokens === null ? 'input tokens not reported' : `${formatCount(request.inputTokens)} input tokens`;
    const mark = latest.matches === result.decisions.length ? p.green : p.yellow;
    rows.push({
      text: `${mark(`${latest.matches}/${result.decisions.length} match gold`)} · ${formatLatencyMs(request.latencyMs)} · ${tokens}`,
      keep: 9,
    });
  } else {
    rows.push({
      text: p.red(`failed (${request.failure.kind}): ${singleLine(request.failure.message)}`),
      keep: 9,
    });
  }
  rows.push({ text: p.dim(`state ${latest.statePreview}`), keep: 1 });
  const qWidth = Math.min(24, Math.max(...result.decisions.map((d) => d.questionId.length)));
  const predWidth = Math.min(
    14,
    Math.max(4, ...result.decisions.map((d) => (d.outcome.status === 'answered' ? d.outcome.predicted.length : 5))),
  );
  result.decisions.forEach((d, i) =>
    rows.push({ text: decisionLine(d, qWidth, predWidth, p), keep: 5 - Math.min(i, 3) }),
  );
  return panel(`now · ${result.caseId} (${result.workflow})`, rows, p, 4);
}

function decisionLine(d: Decision, qWidth: number, predWidth: number, p: Palette): string {
  const q = d.questionId.length > qWidth ? `${d.questionId.slice(0, qWidth - 1)}…` : d.questionId.padEnd(qWidth);
  const type = d.type.padEnd(6);
  if (d.outcome.status === 'failed') return `${p.red('✗')} ${q} ${type} ${p.dim('no answer')}`;
  const o = d.outcome;
  const mark = o.correct ? p.green('✓') : p.red('✗');
  const top = formatPercent(o.confidence, 0).padStart(4);
  const predicted =
    o.predicted.length > predWidth ? `${o.predicted.slice(0, predWidth - 1)}…` : o.predicted.padEnd(predWidth);
  const gold = o.correct ? '' : ` gold ${d.gold.label}`;
  return `${mark} ${q} ${type} ${top} ${predicted}${gold}`;
}

function recentPanel(state: LiveState, p: Palette): Panel {
  const rows: Row[] = [...state.recent].reverse().map((r) => {
    const what =
      r.failure === null
        ? `${(r.matches === r.decisions ? p.green : p.yellow)(`${r.matches}/${r.decisions}`)}  ${formatLatencyMs(r.latencyMs).padStart(8)}`
        : p.red(`failed ${singleLine(r.failure)}`);
    return { text: `${r.caseId.padEnd(32)} ${what}`, keep: 1 };
  });
  return panel('recent probes · newest first', rows, p, 1);
}

function qualityPanel(state: LiveState, p: Palette): Panel {
  const s = state.summary;
  const title = (w: number) =>
    `quality · last ${formatCount(s.n)}${s.n < state.settings.windowSize ? `/${state.settings.windowSize}` : ''}${w >= 40 ? ' decisions' : ''}`;
  const eceHigh = Math.max(0.1, ...state.trend.ece.map((v) => v ?? 0));
  return flexiblePanel(title, 7, 4, p, (w) => {
    const spark = Math.max(0, w - 17);
    return [
      {
        text: `accuracy ${formatPercent(s.accuracy).padStart(6)}  ${p.cyan(sparkline(state.trend.accuracy, spark, 0, 1))}`,
        keep: 9,
      },
      {
        text: `answered ${formatPercent(s.answeredAccuracy).padStart(6)}  ${formatCount(s.correct)}/${formatCount(s.answered)}`,
        keep: 7,
      },
      {
        text: `ECE      ${formatNumber(s.ece).padStart(6)}  ${p.cyan(sparkline(state.trend.ece, spark, 0, eceHigh))}`,
        keep: 8,
      },
      {
        text: `Brier ${formatNumber(s.brier)} · ${w >= 31 ? 'mean conf' : 'conf'} ${formatPercent(s.meanConfidence)}`,
        keep: 4,
      },
      {
        text: `session  ${formatPercent(sessionAccuracy(state)).padStart(6)}  ${formatCount(state.correct)}/${formatCount(state.decisions)}`,
        keep: 6,
      },
      {
        text: `confident mistakes ${state.confidentMistakes > 0 ? p.yellow(formatCount(state.confidentMistakes)) : '0'}${w >= 37 ? ' (wrong at ≥90%)' : ''}`,
        keep: 5,
      },
    ];
  });
}

function typesPanel(state: LiveState, p: Palette): Panel {
  return flexiblePanel('by question type · session', 4, 4, p, (w) =>
    QUESTION_TYPES.map((type) => {
      const t = state.byType[type];
      const acc = typeAccuracy(state, type);
      const counts = `${formatCount(t.correct)}/${formatCount(t.total)}`;
      const head = `${type.padEnd(6)} ${formatPercent(acc).padStart(6)}`;
      const bar = w >= head.length + counts.length + 13 ? ` ${renderBar(acc)}` : '';
      return { text: `${head}${bar}  ${counts}`, keep: 5 };
    }),
  );
}

const HISTOGRAM_TALL = 11;

function histogramPanel(state: LiveState, p: Palette): Panel {
  const counts = state.summary.histogram;
  const most = Math.max(0, ...counts);
  return flexiblePanel(
    (w) => `confidence · last ${formatCount(state.summary.answered)}${w >= 40 ? ' answered' : ''}`,
    6,
    3,
    p,
    (w, body) => {
      if (body >= 10) {
        // One row per bin, highest confidence first.
        const barWidth = Math.max(1, w - 15);
        return counts
          .map((n, b) => {
            const cells = most === 0 ? 0 : Math.round((n / most) * barWidth);
            const label = `${String(b * 10).padStart(2)}-${b === 9 ? '100' : String(b * 10 + 10)}%`;
            return {
              text: `${label.padEnd(8)}${p.cyan('█'.repeat(cells))}${' '.repeat(barWidth - cells)} ${String(n).padStart(4)}`,
              keep: 5,
            };
          })
          .reverse();
      }
      // Vertical bars, one column group per bin, 0% on the left.
      const cell = Math.max(1, Math.min(4, Math.floor((w - 1) / 10)));
      const chartRows = Math.max(1, body - 1);
      const lines: Row[] = [];
      for (let r = chartRows - 1; r >= 0; r--) {
        const line = counts
          .map((n) => {
            const eighths = most === 0 ? 0 : Math.round((n / most) * chartRows * 8) - r * 8;
            const ch = EIGHTHS[Math.max(0, Math.min(8, eighths))]!;
            return ch.repeat(Math.max(1, cell - 1)) + (cell > 1 ? ' ' : '');
          })
          .join('');
        lines.push({ text: p.cyan(line), keep: 5 });
      }
      const axisWidth = cell * 10;
      lines.push({ text: p.dim(`0%${' '.repeat(Math.max(1, axisWidth - 6))}100%`), keep: 4 });
      return lines;
    },
  );
}

function serverPanel(state: LiveState, p: Palette): Panel {
  const l = state.latency;
  const s = state.server;
  // A failed reading keeps the last numbers on screen, marked stale with their age.
  const staleMs = serverStaleForMs(state);
  const stale = staleMs !== null;
  const title = (w: number) =>
    s.status !== 'present'
      ? 'server'
      : stale
        ? w >= 45
          ? 'server · /metrics failing: numbers stale'
          : 'server · stale'
        : w >= 45
          ? 'server · /metrics rates are server-wide'
          : 'server · rates server-wide';
  const desired = s.status === 'present' ? 6 + (s.error === null ? 0 : 1) : 4;
  return flexiblePanel(title, desired, 4, p, (w) => {
    const wide = w >= 36;
    const rows: Row[] = [
      { text: `${wide ? 'latency ' : ''}p50 ${formatLatencyMs(l.p50)} · p95 ${formatLatencyMs(l.p95)}`, keep: 9 },
      { text: `input tokens sent ${formatCount(state.inputTokens)}`, keep: 8 },
    ];
    switch (s.status) {
      case 'waiting':
        rows.push(
          s.error === undefined
            ? { text: p.dim('reading /metrics…'), keep: 3 }
            : { text: p.yellow(`/metrics: ${singleLine(s.error)}`), keep: 3 },
        );
        break;
      case 'absent':
        rows.push({ text: p.dim(wide ? 'no /metrics: latency and tokens only' : 'no /metrics'), keep: 3 });
        break;
      case 'present': {
        const mark = (text: string) => (stale ? p.dim(`stale ${text}`) : text);
        rows.push(
          {
            text: mark(
              `${wide && !stale ? 'server-wide ' : ''}${formatNumber(s.requestsPerSec, 1)} req/s · ${formatNumber(s.inputTokensPerSec, 0)} tok/s`,
            ),
            keep: 7,
          },
          {
            text: mark(
              `${wide ? 'busy slots' : 'slots'} ${formatNumber(s.busySlots, 1)} · processing ${formatCount(s.processing)}`,
            ),
            keep: 5,
          },
          {
            text: mark(`deferred ${formatCount(s.deferred)}${s.reset ? p.yellow(' · counters reset') : ''}`),
            keep: 4,
          },
        );
        if (s.error !== null)
          rows.push({
            text: p.yellow(`/metrics last read ${formatDuration(staleMs ?? 0)} ago: ${singleLine(s.error)}`),
            keep: 6,
          });
        break;
      }
    }
    return rows;
  });
}
