/**
 * The `actions --json` document: stable snake_case keys, unrounded numbers, null for absent
 * values. Every number comes from the core evaluation and comparison.
 */
import { jsonDocumentText } from '../../core/safe-text.js';
import type { ActionComparison, ActionItems, ActionSpec } from '../../core/offline/composed-actions.js';

/** Everything an `actions` report shows. */
export interface ActionsReport {
  readonly datasetPath: string;
  readonly specPath: string;
  readonly spec: ActionSpec;
  readonly items: ActionItems;
  /** Yes/no thresholds given per field (fields not listed use 0.5). */
  readonly thresholds: ReadonlyMap<string, number>;
  /** Results file of each model, aligned with `comparison.models`. */
  readonly resultsPaths: readonly string[];
  readonly comparison: ActionComparison;
}

export function actionsJson(r: ActionsReport) {
  return {
    dataset: r.datasetPath,
    spec: r.specPath,
    actions: r.spec.actions,
    inaction: r.spec.inaction,
    fields: [...r.items.schema].map(([name, s]) => ({ name, kind: s.kind })),
    groups: r.items.items.length,
    thresholds: Object.fromEntries(r.thresholds),
    models: r.comparison.models.map((m, i) => {
      const e = m.evaluation;
      return {
        model: m.model,
        results: r.resultsPaths[i] ?? null,
        field_accuracy: e.fieldAccuracy,
        field_rank: m.fieldRank,
        action_accuracy: e.actionAccuracy,
        mean_cost_per_item: e.meanCostPerItem,
        total_cost: e.totalCost,
        action_rank: m.actionRank,
        false_inaction_rate: e.falseInactionRate,
        actionable_items: e.actionableItems,
        items: e.items,
        incomplete_items: e.incompleteItems,
        unanswered_items: e.unansweredItems,
        field_decisions: e.fieldDecisions,
        confusions: e.confusions.map((c) => ({
          gold: c.gold,
          pred: c.pred,
          count: c.count,
          unit_cost: c.unitCost,
          total_cost: c.totalCost,
        })),
      };
    }),
    ranking: { by_field_accuracy: r.comparison.byFieldAccuracy, by_action_cost: r.comparison.byActionCost },
  };
}

/** `actions --json`: one document. */
export function renderActionsJson(r: ActionsReport): string {
  return `${jsonDocumentText(actionsJson(r))}\n`;
}
