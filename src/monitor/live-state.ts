/**
 * The live monitor as a pure state machine: `reduce(state, event)` folds poll results,
 * `/metrics` readings, clock ticks, keys and resizes into the state the screen shows. The
 * clock comes in on every event (`atMs`), so the same events always give the same state.
 * Numbers come from the core: the rolling window from `summarizeWindow`, rates from
 * `counterRate`, latency percentiles from `summarizeLatency`.
 */
import type { CaseResult, Decision } from '../core/typed-decisions/case-result.js';
import { counterRate, counterWasReset } from '../core/live/counter-rate.js';
import { slideWindow, summarizeWindow, type WindowDecision, type WindowSummary } from '../core/live/window-summary.js';
import { summarizeLatency, type LatencySummary } from '../core/percentile.js';
import type { QuestionType } from '../core/question.js';
import type { LlamaCppMetrics } from '../protocol/wire/prometheus-text.js';

/** What the screen says about the session that never changes while it runs. */
export interface LiveInfo {
  /** The redacted endpoint, or the embedded server's URL. */
  readonly target: string;
  readonly embedded: boolean;
  readonly model: string | null;
  /** One line crediting the dataset (id, revision, licence) or saying "synthetic sample". */
  readonly datasetCredit: string;
  readonly cases: number;
  readonly intervalMs: number;
}

export interface LiveSettings {
  /** Decisions in the rolling window (default 100). */
  readonly windowSize: number;
  /** How long a confident-mistake banner stays up (default 4000 ms). */
  readonly bannerMs: number;
  /** Failed polls in a row that mean "model unreachable" (default 3). */
  readonly unreachableAfter: number;
  /** Points kept for each trend sparkline (default 120). */
  readonly trendPoints: number;
  /** Poll latencies kept for p50/p95 (default 200). */
  readonly latencyWindow: number;
  /** Wrong at this confidence or more is a confident mistake (default 0.9). */
  readonly confidentAt: number;
}

export const DEFAULT_LIVE_SETTINGS: LiveSettings = {
  windowSize: 100,
  bannerMs: 4000,
  unreachableAfter: 3,
  trendPoints: 120,
  latencyWindow: 200,
  confidentAt: 0.9,
};

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

export type LiveKey = 'reset' | 'quit' | 'interrupt';

export type LiveEvent =
  | {
      readonly type: 'poll';
      readonly atMs: number;
      readonly result: CaseResult;
      /** One line of the case's state, already flattened. */
      readonly statePreview: string;
    }
  /** `metrics` null: the server has no `/metrics` (404/501). */
  | { readonly type: 'metrics'; readonly atMs: number; readonly metrics: LlamaCppMetrics | null }
  | { readonly type: 'metrics-error'; readonly atMs: number; readonly message: string }
  | { readonly type: 'tick'; readonly atMs: number }
  | { readonly type: 'key'; readonly atMs: number; readonly key: LiveKey }
  | { readonly type: 'resize'; readonly atMs: number; readonly size: TerminalSize };

export interface TypeTally {
  readonly correct: number;
  readonly total: number;
}

export interface LatestPoll {
  readonly result: CaseResult;
  readonly statePreview: string;
  /** Decisions that match gold. */
  readonly matches: number;
  /** The most confident wrong answer at or above `confidentAt`, described; null when none. */
  readonly mistake: string | null;
}

/** One line of the "recent probes" list (the screen keeps its words). */
export interface RecentPoll {
  readonly caseId: string;
  readonly workflow: string;
  readonly matches: number;
  readonly decisions: number;
  readonly latencyMs: number | null;
  /** The failure kind and message of a failed poll. */
  readonly failure: string | null;
}

export interface Banner {
  readonly text: string;
  readonly untilMs: number;
}

export type ServerPanel =
  /** No reading yet; `error` when the last attempt failed. */
  | { readonly status: 'waiting'; readonly error?: string }
  /** The server has no `/metrics`: latency and tokens only. */
  | { readonly status: 'absent' }
  | {
      readonly status: 'present';
      readonly requestsPerSec: number | null;
      readonly inputTokensPerSec: number | null;
      readonly busySlots: number | null;
      readonly processing: number | null;
      readonly deferred: number | null;
      /** True right after the counters went down (a server restart): rates wait for the next reading. */
      readonly reset: boolean;
      /** The last error reading `/metrics`, cleared by the next good reading. */
      readonly error: string | null;
      readonly last: { readonly atMs: number; readonly promptTokens: number | null; readonly decodes: number | null };
    };

export interface LiveState {
  readonly info: LiveInfo;
  readonly settings: LiveSettings;
  readonly size: TerminalSize;
  readonly nowMs: number;
  readonly sessionStartMs: number;
  readonly polls: number;
  readonly failedPolls: number;
  readonly decisions: number;
  readonly correct: number;
  readonly byType: Readonly<Record<QuestionType, TypeTally>>;
  readonly confidentMistakes: number;
  /** Input tokens of answered polls that reported them. */
  readonly inputTokens: number;
  readonly latenciesMs: readonly number[];
  readonly latency: LatencySummary;
  readonly window: readonly WindowDecision[];
  readonly summary: WindowSummary;
  /** Rolling accuracy and ECE after each poll, oldest first (null while undefined). */
  readonly trend: { readonly accuracy: readonly (number | null)[]; readonly ece: readonly (number | null)[] };
  readonly latest: LatestPoll | null;
  /** The last polls, oldest first (as many as `trendPoints`). */
  readonly recent: readonly RecentPoll[];
  readonly banner: Banner | null;
  readonly failureStreak: number;
  readonly lastError: string | null;
  readonly server: ServerPanel;
  /** Set by a key: the exit code the command ends with. */
  readonly exit: 0 | 130 | null;
}

const EMPTY_TALLY: Readonly<Record<QuestionType, TypeTally>> = {
  noul: { correct: 0, total: 0 },
  choice: { correct: 0, total: 0 },
  score: { correct: 0, total: 0 },
};

export function createLiveState(
  info: LiveInfo,
  options: { atMs: number; size: TerminalSize; settings?: Partial<LiveSettings> },
): LiveState {
  return {
    info,
    settings: { ...DEFAULT_LIVE_SETTINGS, ...options.settings },
    size: options.size,
    nowMs: options.atMs,
    server: { status: 'waiting' },
    exit: null,
    ...freshSession(options.atMs),
  };
}

function freshSession(atMs: number) {
  return {
    sessionStartMs: atMs,
    polls: 0,
    failedPolls: 0,
    decisions: 0,
    correct: 0,
    byType: EMPTY_TALLY,
    confidentMistakes: 0,
    inputTokens: 0,
    latenciesMs: [] as readonly number[],
    latency: summarizeLatency([]),
    window: [] as readonly WindowDecision[],
    summary: summarizeWindow([]),
    trend: { accuracy: [] as readonly (number | null)[], ece: [] as readonly (number | null)[] },
    latest: null,
    recent: [] as readonly RecentPoll[],
    banner: null,
    failureStreak: 0,
    lastError: null,
  } satisfies Partial<LiveState>;
}

/** The monitor's one transition function. */
export function reduce(state: LiveState, event: LiveEvent): LiveState {
  const at = { ...state, nowMs: Math.max(state.nowMs, event.atMs) };
  switch (event.type) {
    case 'poll':
      return expireBanner(onPoll(at, event.result, event.statePreview, event.atMs));
    case 'metrics':
      return { ...at, server: onMetrics(state.server, event.metrics, event.atMs) };
    case 'metrics-error':
      return {
        ...at,
        server:
          state.server.status === 'absent'
            ? state.server
            : state.server.status === 'present'
              ? { ...state.server, error: event.message }
              : { status: 'waiting', error: event.message },
      };
    case 'tick':
      return expireBanner(at);
    case 'key':
      switch (event.key) {
        case 'reset':
          return { ...at, ...freshSession(event.atMs) };
        case 'quit':
          return { ...at, exit: 0 };
        case 'interrupt':
          return { ...at, exit: 130 };
      }
      return at;
    case 'resize':
      return { ...at, size: event.size };
  }
}

function expireBanner(state: LiveState): LiveState {
  return state.banner !== null && state.nowMs >= state.banner.untilMs ? { ...state, banner: null } : state;
}

function windowDecisionOf(d: Decision): WindowDecision {
  return d.outcome.status === 'answered'
    ? {
        status: 'answered',
        type: d.type,
        confidence: d.outcome.confidence,
        correct: d.outcome.correct,
        brier: d.outcome.brier,
      }
    : { status: 'failed', type: d.type };
}

function onPoll(state: LiveState, result: CaseResult, statePreview: string, atMs: number): LiveState {
  const { settings } = state;
  const failed = result.request.status === 'failed';
  const byType = { ...state.byType };
  let correct = 0;
  let mistake: { decision: Decision; confidence: number; predicted: string } | null = null;
  let confidentMistakes = 0;
  for (const d of result.decisions) {
    const hit = d.outcome.status === 'answered' && d.outcome.correct;
    if (hit) correct++;
    const tally = byType[d.type];
    byType[d.type] = { correct: tally.correct + (hit ? 1 : 0), total: tally.total + 1 };
    if (d.outcome.status === 'answered' && !d.outcome.correct && d.outcome.confidence >= settings.confidentAt) {
      confidentMistakes++;
      if (mistake === null || d.outcome.confidence > mistake.confidence)
        mistake = { decision: d, confidence: d.outcome.confidence, predicted: d.outcome.predicted };
    }
  }
  const window = slideWindow(state.window, result.decisions.map(windowDecisionOf), settings.windowSize);
  const summary = summarizeWindow(window);
  const latencyMs = result.request.latencyMs;
  const latenciesMs =
    latencyMs === null ? state.latenciesMs : slideWindow(state.latenciesMs, [latencyMs], settings.latencyWindow);
  const tokens = result.request.status === 'answered' ? (result.request.inputTokens ?? 0) : 0;
  const mistakeText =
    mistake === null
      ? null
      : `confident mistake: ${result.caseId} ${mistake.decision.questionId} ` +
        `predicted ${mistake.predicted} at ${(mistake.confidence * 100).toFixed(0)}%, gold ${mistake.decision.gold.label}` +
        (confidentMistakes > 1 ? ` (+${confidentMistakes - 1} more)` : '');
  const banner: Banner | null =
    mistakeText === null ? state.banner : { text: mistakeText, untilMs: atMs + settings.bannerMs };
  return {
    ...state,
    polls: state.polls + 1,
    failedPolls: state.failedPolls + (failed ? 1 : 0),
    decisions: state.decisions + result.decisions.length,
    correct: state.correct + correct,
    byType,
    confidentMistakes: state.confidentMistakes + confidentMistakes,
    inputTokens: state.inputTokens + tokens,
    latenciesMs,
    latency: latenciesMs === state.latenciesMs ? state.latency : summarizeLatency(latenciesMs),
    window,
    summary,
    trend: {
      accuracy: slideWindow(state.trend.accuracy, [summary.accuracy], settings.trendPoints),
      ece: slideWindow(state.trend.ece, [summary.ece], settings.trendPoints),
    },
    latest: { result, statePreview, matches: correct, mistake: mistakeText },
    recent: slideWindow(
      state.recent,
      [
        {
          caseId: result.caseId,
          workflow: result.workflow,
          matches: correct,
          decisions: result.decisions.length,
          latencyMs,
          failure:
            result.request.status === 'failed'
              ? `${result.request.failure.kind}: ${result.request.failure.message}`
              : null,
        },
      ],
      settings.trendPoints,
    ),
    banner,
    failureStreak: failed ? state.failureStreak + 1 : 0,
    lastError: result.request.status === 'failed' ? result.request.failure.message : state.lastError,
  };
}

function onMetrics(previous: ServerPanel, metrics: LlamaCppMetrics | null, atMs: number): ServerPanel {
  if (metrics === null) return { status: 'absent' };
  const now = { atMs, promptTokens: metrics.promptTokensTotal, decodes: metrics.decodeTotal };
  const gauges = {
    busySlots: metrics.busySlotsPerDecode,
    processing: metrics.requestsProcessing,
    deferred: metrics.requestsDeferred,
  };
  if (previous.status !== 'present')
    return {
      status: 'present',
      requestsPerSec: null,
      inputTokensPerSec: null,
      ...gauges,
      reset: false,
      error: null,
      last: now,
    };
  const last = previous.last;
  const reset = counterWasReset(last.promptTokens, now.promptTokens) || counterWasReset(last.decodes, now.decodes);
  return {
    status: 'present',
    requestsPerSec: reset ? null : counterRate({ atMs: last.atMs, value: last.decodes }, { atMs, value: now.decodes }),
    inputTokensPerSec: reset
      ? null
      : counterRate({ atMs: last.atMs, value: last.promptTokens }, { atMs, value: now.promptTokens }),
    ...gauges,
    reset,
    error: null,
    last: now,
  };
}

/** True when the last `unreachableAfter` polls (or more) all failed. */
export function isUnreachable(state: LiveState): boolean {
  return state.failureStreak >= state.settings.unreachableAfter;
}

/** Correct over all decisions of the session (a failed one is a miss); null before the first. */
export function sessionAccuracy(state: LiveState): number | null {
  return state.decisions === 0 ? null : state.correct / state.decisions;
}

/**
 * How long ago `/metrics` was last read well, when its latest reading failed and the numbers
 * shown are the last good ones; null while they are fresh (or there is no `/metrics`).
 */
export function serverStaleForMs(state: LiveState): number | null {
  const s = state.server;
  return s.status === 'present' && s.error !== null ? state.nowMs - s.last.atMs : null;
}

/** Session accuracy per question type (null for a type not seen yet). */
export function typeAccuracy(state: LiveState, type: QuestionType): number | null {
  const t = state.byType[type];
  return t.total === 0 ? null : t.correct / t.total;
}
