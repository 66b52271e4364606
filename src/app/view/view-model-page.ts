/** `decidekit view`'s model page (`/models/NAME`): the model's runs grouped by the work they measured. */
import { summarizeModelTrend, type TrendRun } from '../../core/view/model-trend.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { openStore } from '../../store/open-store.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import { datasetOfHead, modelOfHead } from '../../reports/view/view-index.js';
import { listEndpointCell } from '../../reports/runs/runs-list.js';
import { renderModelChoicePage, renderModelPage } from '../../reports/view/view-model.js';
import { matchModelName } from '../../core/view/model-name.js';
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

/**
 * The runs whose model column (as `runs list` shows it) is `model`, grouped by fingerprint:
 * same dataset, cases, questions, model and server, so each group is the model on one work.
 */
export function viewModelPage(storePath: string, asked: string, links: ViewLinks): string {
  return viewModelAddress(storePath, asked, links).html;
}

/**
 * The page `/models/NAME` answers with: the model's page when the name means one model (as
 * shown, without its marks, in any case, or by its start); else a page naming the models it
 * could mean (several) or the close ones (none: status 404).
 */
export function viewModelAddress(
  storePath: string,
  asked: string,
  links: ViewLinks,
): { readonly status: number; readonly html: string } {
  const all = listStore(storePath).runs;
  const match = matchModelName(all.map(modelOfHead), asked);
  if (match.kind === 'one') return { status: 200, html: modelPage(storePath, all, match.model, links) };
  const models = [...new Set(all.map(modelOfHead))].sort();
  return {
    status: match.kind === 'none' ? 404 : 200,
    html: renderModelChoicePage({ asked, match, models, links, storePath }),
  };
}

function modelPage(storePath: string, all: readonly StoredRunHead[], model: string, links: ViewLinks): string {
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
