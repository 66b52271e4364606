import { jsonDocumentText } from '../../core/safe-text.js';
import { recalibratedText } from '../../core/calibration-map.js';
import { benchResumeCommand } from '../../core/command-hints.js';
import {
  benchNullReasons,
  CONFIDENT_THRESHOLD,
  costPerCorrectNullReason,
  latencyNullReason,
} from '../../core/bench/summary.js';
import { datasetJson } from '../json-shapes.js';
import { benchSummaryJson, runConfigJson, runHeadJson, runStatisticsJson } from '../bench/bench-json-shapes.js';
import { setAsideJson, setAsideTexts } from '../bench/replica-latency.js';
import type { StoredRunHead, StoredRunInfo } from '../../store/stored-run.js';
import {
  describeEndpoints,
  describeErrorKinds,
  describeFilters,
  describeModel,
  describeSettings,
  FILTERED_NOTE,
  SYNTHETIC_NOTE,
} from '../bench/bench-describe.js';
import {
  createPalette,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatRatio,
  formatUsd,
  renderStars,
  singleLine,
} from '../format.js';
import type { HeadlineMetric, RunStatistics } from '../../core/bench/run-statistics.js';
import {
  describeEceNoise,
  describeIntervals,
  describeRunConventions,
  formatInterval,
  intervalOf,
} from '../bench/bench-statistics.js';
import type { ShardCounts } from '../../store/queue/shard-queue.js';
import { describeCreatedAt } from './runs-list.js';
import { renderLabelledRows, wrapIndented, wrapStyled } from '../text-fit.js';

export interface RunShowOptions {
  readonly colour: boolean;
  /** Show the host as `<redacted>`. Default false. */
  readonly redactHost?: boolean;
  /** Intervals, ECE noise floor and conventions; absent: the numbers alone. */
  readonly statistics?: RunStatistics | null;
  /** The live process sending a running run, if one is (its claim), else absent. */
  readonly sentBy?: { readonly pid: number; readonly host: string; readonly since: string } | null;
  /** The terminal's columns: every line fits them. Default none (a file or pipe: lines whole). */
  readonly width?: number;
  /** A run sent in shards by workers (`bench --shards`): its shards by where they are. */
  readonly shards?: ShardCounts | null;
  /** The store as named for a hint (failed shards are queued again with `bench --resume`). */
  readonly store?: string | null;
}

/** `runs show`: what the run was (configuration, provenance) and its headline results. */
export function renderRunShow(head: StoredRunHead, run: StoredRunInfo, options: RunShowOptions): string {
  const p = createPalette(options.colour);
  const c = run.config;
  const s = run.summary;
  const width = options.width ?? Infinity;
  const out: string[] = [];
  out.push(...wrapStyled(`Run ${run.id}${run.label === null ? '' : `  ${singleLine(run.label)}`}`, width).map(p.bold));
  const status =
    head.status === 'running'
      ? `running (${formatCount(head.savedCases)} of ${formatCount(head.caseCount)} cases saved; ${
          options.shards
            ? 'sent in shards by workers'
            : options.sentBy
              ? `being sent by pid ${options.sentBy.pid} on ${singleLine(options.sentBy.host)} since ${singleLine(options.sentBy.since)}`
              : 'a run left running by a killed process can be resumed'
        })`
      : head.savedCases < head.caseCount
        ? `${head.status} (${formatCount(head.savedCases)} of ${formatCount(head.caseCount)} cases saved${failedShardsWords(options.shards)})`
        : head.status;
  const filters = describeFilters(c);
  const about: [string, string][] = [
    ['created', `${describeCreatedAt(run.createdAt)} · duration ${formatDuration(run.durationMs)}`],
    ['status', status],
    ...(options.shards ? [['shards', shardWords(options.shards)] as [string, string]] : []),
    ['fingerprint', run.fingerprint],
    ...(c.calibration === undefined ? [] : [['calibration', recalibratedText(c.calibration)] as [string, string]]),
    ['model', singleLine(describeModel(c, head.answeredModels ?? []))],
    [
      'endpoint',
      c.embeddedServer === null ? describeEndpoints(c, options.redactHost === true) : 'in-process reference server',
    ],
    [
      'dataset',
      `${singleLine(c.dataset.id)}${c.dataset.revision === null ? '' : ` @ ${singleLine(c.dataset.revision)}`}, split ${singleLine(c.dataset.split)}, ${singleLine(c.dataset.license)}`,
    ],
    [
      'cases',
      `${formatCount(c.caseIds.length)}${filters === null ? '' : ` (filtered: ${singleLine(filters)}; ${FILTERED_NOTE})`}`,
    ],
    ['questions', formatCount(Object.keys(c.questionSet).length)],
    ['settings', describeSettings(c)],
    ['price', c.pricePerMtokUsd === null ? 'not set' : `${formatUsd(c.pricePerMtokUsd)} per million input tokens`],
    ['tool', `decidekit ${singleLine(c.toolVersion)}`],
  ];
  out.push(...renderLabelledRows(about, width, '  '));
  const note = (text: string, paint: (t: string) => string) => out.push(...wrapIndented(text, width, '  ').map(paint));
  for (const text of failedShardNotes(run.id, options)) note(text, p.yellow);
  for (const text of setAsideTexts(run, options.redactHost === true)) note(singleLine(text), p.yellow);
  // One note: the bundled sample's attribution already says it is not Typed Decisions scores.
  const attribution = singleLine(c.dataset.attribution);
  if (!c.dataset.synthetic) note(attribution, p.dim);
  else if (attribution.includes(SYNTHETIC_NOTE.split(' — ')[1]!)) note(attribution, p.yellow);
  else note(`${SYNTHETIC_NOTE}; ${attribution}`, p.yellow);
  out.push('');

  out.push(p.bold('Headline'));
  const errorsNote = s.errors > 0 ? `; ${formatCount(s.errors)} errors count as misses` : '';
  const kinds = describeErrorKinds(s.errorKinds);
  const cost = s.cost;
  const st = options.statistics ?? null;
  const ci = (metric: HeadlineMetric) => {
    const text = formatInterval(metric, intervalOf(st, metric));
    return text === '' ? '' : `  ${p.dim(text)}`;
  };
  const noise = describeEceNoise(st);
  const absent = benchNullReasons(s);
  const why = (reason: string | null | undefined): string => (reason == null ? '' : p.dim(`  (${reason})`));
  const latencyWhy = latencyNullReason(s.latencyMs);
  const rows: [string, string][] = [
    [
      'accuracy',
      `${formatPercent(s.accuracy)}${ci('accuracy')}  (${formatRatio(s.correct, s.total)} decisions${errorsNote})`,
    ],
    ['KL from gold', `${formatNumber(s.kl)}${ci('kl')}${why(absent.kl)}`],
    ['Brier', `${formatNumber(s.brier)}${ci('brier')}${why(absent.brier)}`],
    ['log loss', `${formatNumber(s.logLoss)}${ci('logLoss')}${why(absent.logLoss)}`],
    ['ECE', `${formatNumber(s.ece)}${ci('ece')}${noise === null ? why(absent.ece) : p.dim(`  ${noise}`)}`],
    ['mean confidence', `${formatPercent(s.meanConfidence)}${why(absent.meanConfidence)}`],
    [
      'confident disagreements',
      `${formatCount(s.confidentDisagreements)}  (wrong at >= ${formatPercent(CONFIDENT_THRESHOLD, 0)})`,
    ],
    ['rating', `${renderStars(s.rating.stars)}  ${s.rating.label}`],
    [
      'requests',
      `${formatRatio(s.requests.answered, s.requests.total)} answered${kinds === null ? '' : `; failed: ${kinds}`}`,
    ],
    [
      'latency',
      latencyWhy === null
        ? `p50 ${formatLatencyMs(s.latencyMs.p50)} · p95 ${formatLatencyMs(s.latencyMs.p95)} · mean ${formatLatencyMs(s.latencyMs.mean)}`
        : `n/a${why(latencyWhy)}`,
    ],
    ['input tokens', `${formatCount(s.inputTokens)}${why(absent.inputTokens)}`],
  ];
  if (cost !== null)
    rows.push([
      'cost',
      `${formatUsd(cost.totalUsd)} total · ${formatUsd(cost.perCorrectUsd)} per correct decision${why(costPerCorrectNullReason(cost))}`,
    ]);
  out.push(...renderLabelledRows(rows, width, '  '));
  if (st !== null) {
    out.push('');
    for (const text of [describeIntervals(st), describeRunConventions(st)])
      out.push(...wrapIndented(text, Math.min(100, width), '  ').map(p.dim));
  }
  return `${out.join('\n')}\n`;
}

/**
 * `runs show --json`: the run's head (its dataset in full, with the file a path dataset was
 * read from), configuration and summary (decisions: `runs export`).
 */
export function renderRunShowJson(
  head: StoredRunHead,
  run: StoredRunInfo,
  redactHost = false,
  statistics: RunStatistics | null = null,
): string {
  const d = run.config.dataset;
  const document = {
    ...runHeadJson(head, redactHost),
    // The head's dataset, in full (the head's own keys first).
    dataset: {
      ...datasetJson(d),
      file: d.file === undefined ? null : { path: d.file.path, sha256: d.file.sha256 },
    },
    config: runConfigJson(run.config, redactHost),
    ...setAsideJson(run, redactHost),
    summary: { ...benchSummaryJson(run.summary, redactHost, run.config.replicas), ...runStatisticsJson(statistics) },
  };
  return `${jsonDocumentText(document)}\n`;
}

/** `5 done, 1 sending, 2 queued` (and the failed ones, when any). */
function shardWords(s: ShardCounts): string {
  return `${s.done} done, ${s.sending} sending, ${s.queued} queued${s.failed === 0 ? '' : `, ${s.failed} failed`}`;
}

/** `; every shard failed` (or `; 2 of 5 shards failed`) beside a stopped run's saved cases, when any did. */
function failedShardsWords(s: ShardCounts | null | undefined): string {
  if (!s || s.failed === 0) return '';
  const all = s.queued + s.sending + s.done + s.failed;
  return s.failed === all ? '; every shard failed' : `; ${s.failed} of ${all} shards failed`;
}

/** One line a failed shard (why it failed), then the command that queues its cases again. */
function failedShardNotes(runId: string, options: RunShowOptions): string[] {
  const failures = options.shards?.failures ?? [];
  if (failures.length === 0) return [];
  return [
    ...failures.map(
      (f) =>
        `shard ${f.shard} of ${f.of} failed ${
          f.reason === null ? 'after it was given back too often' : `after ${f.stops} stops: ${singleLine(f.reason)}`
        }`,
    ),
    `Queue its cases again (once the server answers) with: ${benchResumeCommand(runId, { store: options.store })}`,
  ];
}
