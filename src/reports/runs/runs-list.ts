import { jsonDocumentText } from '../../core/safe-text.js';
import { datasetValueOf } from '../../datasets/typed-decisions/dataset-source.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import type { AuditHead } from '../../store/stored-audit.js';
import type { StoredStatus } from '../../core/run-status.js';
import { summarizeStatusCounts, type StatusCountSummary } from '../../core/status-counts.js';
import { endpointJson } from '../json-shapes.js';
import { runHeadJson } from '../bench/bench-json-shapes.js';
import { describeAskedModel } from '../bench/bench-describe.js';
import {
  createPalette,
  fitColumns,
  formatPercent,
  plural,
  renderTextTable,
  singleLine,
  wrapText,
  type Align,
} from '../format.js';
import { fitsOr, renderRecords } from '../text-fit.js';

export interface RunsListOptions {
  readonly colour: boolean;
  /** Path of the store, named in the header and in the empty message. */
  readonly storePath: string;
  /** Show hosts as `<redacted>`. Default false. */
  readonly redactHost?: boolean;
  /** Every run of the store by status, for the footer. Default: the runs given. */
  readonly counts?: Readonly<Record<StoredStatus, number>>;
  /** Width to fit: the terminal's. Default 100. */
  readonly width?: number;
  /** Every audit of the store by status, for the footer. Default none. */
  readonly auditCounts?: Readonly<Record<StoredStatus, number>>;
  /** How many probes the store holds, for the footer. Default none. */
  readonly probeCount?: number;
  /** The store's folder that does not exist yet, said when there is no run. Default none. */
  readonly missingFolder?: string | null;
}

/** `2026-11-30 04:15` from an ISO 8601 time, as it was recorded. */
export function describeCreatedAt(createdAt: string): string {
  return createdAt.slice(0, 16).replace('T', ' ');
}

/**
 * `id@revision`, the revision cut to 7 characters (a git hash reads like a commit), and the
 * split when it is not `test`.
 */
export function describeDataset(dataset: StoredRunHead['dataset']): string {
  const revision = dataset.revision === null ? '' : `@${dataset.revision.slice(0, 7)}`;
  return `${dataset.id}${revision}${dataset.split === 'test' ? '' : ` ${dataset.split}`}`;
}

/**
 * The model column: the built-in model of the embedded server (marked `*`), else the model
 * sent, else the one the server's answers named (`heuristic (server default)`).
 */
export function describeHeadModel(head: StoredRunHead): string {
  if (head.embeddedServer !== null) return `${head.embeddedServer.model}*`;
  return describeAskedModel(head.model, head.answeredModels);
}

/** Status, with saved/planned cases when some cases have no saved result. */
export function describeHeadStatus(head: StoredRunHead): string {
  if (head.savedCases >= head.caseCount) return head.status;
  return `${head.status} ${head.savedCases}/${head.caseCount}`;
}

/** The width `runs list` fits when the terminal does not say (and never less). */
export const RUNS_LIST_WIDTH = 100;

/** A stored endpoint in a list cell: `host:port`, or `built-in` for the embedded server. */
export function listEndpointCell(e: EndpointIdentity): string {
  return e.scheme === 'embedded' ? 'built-in' : `${e.host}:${e.port}`;
}

/**
 * `runs list`'s table of stored audits or probes: its bold title over the rows fitted to the
 * width (two-space gaps; `flexible` and `droppable` as `fitColumns` takes them), and a dim
 * note when `--limit` kept only the newest of `total`. Empty when there are no rows.
 */
export function renderKindList(
  table: {
    readonly title: string;
    readonly header: readonly string[];
    readonly align: readonly Align[];
    readonly rows: readonly (readonly string[])[];
    readonly flexible: ReadonlyMap<number, number>;
    readonly droppable: readonly number[];
    /** What one row is, for the note: `audit`, `probe`. */
    readonly noun: string;
  },
  options: { readonly colour: boolean; readonly width?: number; readonly total?: number },
): string {
  const shown = table.rows.length;
  if (shown === 0) return '';
  const p = createPalette(options.colour);
  const width = options.width ?? RUNS_LIST_WIDTH;
  const lines = renderFittingTable(table.header, table.align, table.rows, width, p, table);
  const total = options.total ?? shown;
  const cut = total > shown ? [`The ${shown} newest of ${plural(total, table.noun)}.`] : [];
  return `${[
    ...wrapText(table.title, width).map((l) => p.bold(l)),
    ...lines,
    ...cut.flatMap((n) => wrapText(n, width)).map((l) => p.dim(l)),
  ].join('\n')}\n`;
}

/**
 * A list's table fitted to the width by `fitColumns` (columns dropped and shortened as
 * `columns` says); when even that is wider, one record a row (`renderRecords`).
 */
function renderFittingTable(
  header: readonly string[],
  align: readonly Align[],
  rows: readonly (readonly string[])[],
  width: number,
  p: ReturnType<typeof createPalette>,
  columns: { readonly flexible: ReadonlyMap<number, number>; readonly droppable: readonly number[] },
): string[] {
  const fitted = fitColumns(header, rows, { width, gapWidth: 2, ...columns });
  const lines = renderTextTable(fitted.header, fitted.rows, {
    align: fitted.columns.map((c) => align[c]!),
    styleHeader: p.bold,
  });
  return fitsOr(lines, width, () => renderRecords(header, rows, width, { styleHeader: p.dim }));
}

/**
 * The dataset column: `sample`, `typed-decisions@abc1234`, or a file's name; the split when it
 * is not `test`; `(filtered)` for a run on part of it.
 */
export function describeDatasetShort(head: Pick<StoredRunHead, 'dataset' | 'filtered'>): string {
  const { dataset } = head;
  const named = datasetValueOf(dataset);
  const revision = named === 'typed-decisions' && dataset.revision !== null ? `@${dataset.revision.slice(0, 7)}` : '';
  const split = dataset.split === 'test' ? '' : ` ${dataset.split}`;
  return `${named ?? dataset.id}${revision}${split}${head.filtered ? ' (filtered)' : ''}`;
}

/**
 * `runs list`: one row per stored run, newest first (in the order given), cut to the width
 * (model, dataset and label shortened with an ellipsis), and a footer counting every run
 * the store holds by status.
 */
export function renderRunsList(heads: readonly StoredRunHead[], options: RunsListOptions): string {
  const p = createPalette(options.colour);
  const counts = options.counts;
  const summary = counts === undefined ? null : summarizeStatusCounts(counts);
  const stored = summary === null ? heads.length : summary.total;
  const width = options.width ?? RUNS_LIST_WIDTH;
  const others = describeOtherKinds(options.auditCounts, options.probeCount ?? 0);
  if (heads.length === 0 && stored === 0) {
    const none =
      options.missingFolder !== undefined && options.missingFolder !== null
        ? `No runs stored in ${options.storePath}: its folder ${options.missingFolder} does not exist yet. 'decidekit bench' makes it and saves every run there.`
        : others === ''
          ? `No runs stored in ${options.storePath} yet. 'decidekit bench' saves every run there.`
          : `No bench runs stored in ${options.storePath} yet ('decidekit bench' saves every run there); it holds ${others}.`;
    return `${wrapText(none, width).join('\n')}\n`;
  }
  const header = ['id', 'model', 'dataset', 'status', 'accuracy', 'fingerprint', 'label'];
  const align: Align[] = ['left', 'left', 'left', 'left', 'right', 'left', 'left'];
  const rows = heads.map((h) => [
    h.id,
    singleLine(describeHeadModel(h)),
    singleLine(describeDatasetShort(h)),
    describeHeadStatus(h),
    formatPercent(h.headline?.accuracy),
    h.fingerprint.slice(0, 8),
    h.label === null ? '' : singleLine(h.label),
  ]);
  // The label is the one name the user chose: the fingerprint goes first, then the dataset;
  // the dataset, then the label, then the model are shortened. Too narrow even so: one record a run.
  const lines = renderFittingTable(header, align, rows, width, p, {
    flexible: new Map([
      [2, 8],
      [6, 12],
      [1, 8],
    ]),
    droppable: [2, 5],
  });
  const endpoints = new Set(
    heads.filter((h) => h.embeddedServer === null).map((h) => formatEndpoint(h.endpoint, options.redactHost === true)),
  );
  const notes = [
    describeStoreCounts(heads.length, stored, summary, options.storePath) +
      (others === '' ? '' : ` The store also holds ${others}.`),
    ...(heads.some((h) => h.embeddedServer !== null) ? ['* a built-in model on the embedded reference server.'] : []),
    "Numbers as stored, without intervals: 'decidekit runs show ID' gives each with its 95% interval. Runs of the same dataset, cases and questions compare paired, whatever the model ('decidekit runs compare A B').",
    ...(endpoints.size > 0 ? [`endpoints: ${[...endpoints].sort().join(', ')}`] : []),
  ];
  const footer = notes.flatMap((n) => wrapText(n, width)).map((l) => p.dim(l));
  return `${[...lines, '', ...footer].join('\n')}\n`;
}

/** "12 runs in PATH (9 complete, 3 interrupted)", and how many are shown when not all. */
function describeStoreCounts(
  shown: number,
  stored: number,
  summary: StatusCountSummary | null,
  storePath: string,
): string {
  const parts = summary === null ? '' : describeByStatus(summary);
  const what = `${plural(stored, 'run')} in ${storePath}${parts === '' ? '' : ` (${parts})`}`;
  return shown < stored ? `The ${shown} newest of ${what}.` : `${what[0]!.toUpperCase()}${what.slice(1)}.`;
}

/** "9 complete, 3 interrupted". */
function describeByStatus(summary: StatusCountSummary): string {
  return summary.byStatus.map((s) => `${s.n} ${s.status}`).join(', ');
}

/** "1 audit (1 complete) and 3 probes"; empty when the store holds neither. */
function describeOtherKinds(auditCounts: RunsListOptions['auditCounts'], probes: number): string {
  const audits = auditCounts === undefined ? null : summarizeStatusCounts(auditCounts);
  const parts: string[] = [];
  if (audits !== null && audits.total > 0) parts.push(`${plural(audits.total, 'audit')} (${describeByStatus(audits)})`);
  if (probes > 0) parts.push(plural(probes, 'probe'));
  return parts.join(' and ');
}

/**
 * `runs list --json`: the store path, every run head and the stored audits, keys in a fixed
 * order, numbers unrounded.
 */
export function renderRunsListJson(
  heads: readonly StoredRunHead[],
  storePath: string,
  redactHost = false,
  audits?: readonly AuditHead[],
  /** Probe heads, already as JSON (`probeHeadJson`). */
  probes?: readonly unknown[],
): string {
  const doc = {
    store: storePath,
    runs: heads.map((h) => runHeadJson(h, redactHost)),
    ...(audits ? { audits: audits.map((a) => auditHeadJson(a, redactHost)) } : {}),
    ...(probes ? { probes } : {}),
  };
  return `${jsonDocumentText(doc)}\n`;
}

/** One stored audit as `runs list` gives it. */
export function auditHeadJson(h: AuditHead, redactHost = false) {
  return {
    kind: h.kind,
    id: h.id,
    created_at: h.createdAt,
    status: h.status,
    label: h.label,
    judge_endpoint: endpointJson(h.judgeEndpoint, redactHost),
    judge_model: h.judgeModel,
    set: h.set,
    order_probe: h.orderProbe,
    planned: h.planned,
    finished: h.finished,
    counts: h.counts,
    duration_ms: h.durationMs,
  };
}
