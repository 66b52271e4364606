/** `decidekit view`'s model page (`/models/NAME`): the model's runs grouped by the work they measured. */
import { summarizeModelTrend, type TrendRun } from '../../core/view/model-trend.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { openStore } from '../../store/open-store.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import { datasetOfHead, modelOfHead } from '../../reports/view/view-index.js';
import { listEndpointCell } from '../../reports/runs/runs-list.js';
import { renderModelPage } from '../../reports/view/view-model.js';
import { listStore } from '../runs/stored-runs.js';

function trendRunOf(head: StoredRunHead, intervals: TrendRun['intervals']): TrendRun {
  const h = head.headline;
  return {
    id: head.id,
    createdAt: head.createdAt,
    label: head.label,
    status: head.status,
    values: { accuracy: h?.accuracy ?? null, kl: h?.kl ?? null, brier: h?.brier ?? null, ece: h?.ece ?? null },
    intervals,
  };
}

/** A model column without its marks: `heuristic*` (the built-in server's) and ` (server default)`. */
const plainModelName = (shown: string): string => shown.replace(/ \(server default\)$/, '').replace(/\*$/, '');

/**
 * The model column a name asked for means: itself when a run shows it, else the one column
 * that reads the same without its marks (`heuristic` finds `heuristic*`); else the name as asked.
 */
function shownModelName(shown: readonly string[], asked: string): string {
  if (shown.includes(asked)) return asked;
  const near = [...new Set(shown.filter((m) => plainModelName(m) === plainModelName(asked)))];
  return near.length === 1 ? near[0]! : asked;
}

/**
 * The runs whose model column (as `runs list` shows it) is `model`, grouped by fingerprint:
 * same dataset, cases, questions, model and server, so each group is the model on one work.
 */
export function viewModelPage(storePath: string, asked: string, links: ViewLinks): string {
  const all = listStore(storePath).runs;
  const model = shownModelName(all.map(modelOfHead), asked);
  const heads = all.filter((h) => modelOfHead(h) === model);
  const groups = new Map<string, StoredRunHead[]>();
  for (const h of heads) groups.set(h.fingerprint, [...(groups.get(h.fingerprint) ?? []), h]);
  const works =
    heads.length === 0
      ? []
      : (() => {
          const store = openStore(storePath, { mustExist: true, readOnly: true });
          try {
            return [...groups.values()].map((group) => {
              const first = group[0]!;
              const runs = group.map((h) => {
                const st = h.status === 'running' ? null : store.runs.statistics(h.id);
                return trendRunOf(h, st?.intervals ?? null);
              });
              return {
                title: `${datasetOfHead(first)}, ${first.caseCount} cases, ${listEndpointCell(first.endpoint)} (fingerprint ${first.fingerprint})`,
                points: summarizeModelTrend(runs),
              };
            });
          } finally {
            store.close();
          }
        })();
  return renderModelPage({ model, works, links, storePath });
}
