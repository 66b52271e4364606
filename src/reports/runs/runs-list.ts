import type { StoredRunHead } from '../../store/run-store.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import type { AuditHead } from '../../store/audit/audit-store.js';
import { auditHeadJson, runHeadJson } from '../json-shapes.js';
import {
  createPalette,
  formatNumber,
  formatPercent,
  plural,
  renderTextTable,
  singleLine,
  truncate,
} from '../format.js';

export interface RunsListOptions {
  readonly colour: boolean;
  /** Path of the store, named in the header and in the empty message. */
  readonly storePath: string;
  /** Show hosts as `<redacted>`. Default false. */
  readonly redactHost?: boolean;
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

/** The model column: the built-in model of the embedded server, else the model sent. */
export function describeHeadModel(head: StoredRunHead): string {
  if (head.embeddedServer !== null) return `${head.embeddedServer.model} (built-in)`;
  return head.model ?? 'server default';
}

/** Status, with saved/planned cases when some cases have no saved result. */
export function describeHeadStatus(head: StoredRunHead): string {
  if (head.savedCases >= head.caseCount) return head.status;
  return `${head.status} ${head.savedCases}/${head.caseCount}`;
}

/** `runs list`: one row per stored run, newest first (in the order given). */
export function renderRunsList(heads: readonly StoredRunHead[], options: RunsListOptions): string {
  const p = createPalette(options.colour);
  if (heads.length === 0)
    return `No runs stored in ${options.storePath} yet. 'decidekit bench' saves every run there.\n`;
  const rows = heads.map((h) => [
    h.id,
    describeCreatedAt(h.createdAt),
    truncate(singleLine(describeHeadModel(h)), 28),
    truncate(singleLine(describeDataset(h.dataset)), 56) + (h.filtered ? ' (filtered)' : ''),
    describeHeadStatus(h),
    formatPercent(h.headline?.accuracy),
    formatNumber(h.headline?.kl),
    formatNumber(h.headline?.brier),
    formatNumber(h.headline?.ece),
    h.fingerprint,
    h.label === null ? '' : truncate(singleLine(h.label), 30),
  ]);
  const lines = renderTextTable(
    ['id', 'created', 'model', 'dataset', 'status', 'accuracy', 'KL', 'Brier', 'ECE', 'fingerprint', 'label'],
    rows,
    {
      align: ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'left'],
      styleHeader: p.bold,
    },
  );
  const endpoints = new Set(
    heads.filter((h) => h.embeddedServer === null).map((h) => formatEndpoint(h.endpoint, options.redactHost === true)),
  );
  const footer = [
    p.dim(
      `${plural(heads.length, 'run')} in ${options.storePath}; numbers as stored, without intervals ('decidekit runs show RUN' gives each with its 95% interval); runs of the same dataset, cases and questions compare paired, whatever the model ('decidekit runs compare A B').`,
    ),
  ];
  if (endpoints.size > 0) footer.push(p.dim(`endpoints: ${[...endpoints].sort().join(', ')}`));
  return `${[...lines, '', ...footer].join('\n')}\n`;
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
  return `${JSON.stringify(doc, null, 2)}\n`;
}
