import { describe, expect, it } from 'vitest';
import { compareActionModels, type ActionEvaluation, type ActionSpec } from '../../core/offline/composed-actions.js';
import type { ActionsReport } from './actions-json.js';
import { renderActionsJson } from './actions-json.js';
import { renderActionsText } from './actions-text.js';

const SPEC: ActionSpec = {
  actions: ['act', 'skip'],
  inaction: 'skip',
  rules: [{ when: [], action: 'skip' }],
  costs: {},
  defaultError: 1,
};

function ev(over: Partial<ActionEvaluation>): ActionEvaluation {
  return {
    items: 4,
    incompleteItems: 0,
    unansweredItems: 0,
    fieldAccuracy: 0.5,
    fieldDecisions: 8,
    actionAccuracy: 0.5,
    meanCostPerItem: 1,
    totalCost: 4,
    falseInactionRate: null,
    actionableItems: 0,
    confusions: [],
    agreements: {},
    ...over,
  };
}

function report(models: { model: string; evaluation: ActionEvaluation }[]): ActionsReport {
  return {
    datasetPath: 'd.jsonl',
    specPath: 's.json',
    spec: SPEC,
    items: { schema: new Map([['f', { kind: 'yes_no' as const }]]), items: [] },
    thresholds: new Map([['f', 0.3]]),
    resultsPaths: models.map((m) => `${m.model}.jsonl`),
    comparison: compareActionModels(models),
  };
}

describe('renderActionsText', () => {
  it('shows ties with = and absent values as n/a', () => {
    const text = renderActionsText(
      report([
        { model: 'a', evaluation: ev({}) },
        { model: 'b', evaluation: ev({}) },
        {
          model: 'c',
          evaluation: ev({
            items: 0,
            fieldAccuracy: null,
            actionAccuracy: null,
            meanCostPerItem: null,
            unansweredItems: 4,
          }),
        },
      ]),
    );
    expect(text).toMatch(/Ranked by field accuracy: a = b$/m);
    expect(text).toMatch(/^c +n\/a +n\/a +n\/a +n\/a +n\/a +n\/a +0 +0$/m);
    expect(text).toMatch(/c: 4 items not answered at all \(excluded\)/);
    expect(text).toMatch(/thresholds +yes iff p >= 0\.5, except f >= 0\.3/);
  });

  it('lists the costliest confusions first, capped, with the rest counted', () => {
    const confusions = [
      { gold: 'act', pred: 'skip', count: 2, unitCost: 5, totalCost: 10 },
      { gold: 'skip', pred: 'act', count: 3, unitCost: 1, totalCost: 3 },
    ];
    const text = renderActionsText(report([{ model: 'a', evaluation: ev({ confusions, falseInactionRate: 0.25 }) }]), {
      topConfusions: 1,
    });
    expect(text).toMatch(/^ +a +act -> skip x2 \(cost 5 each, 10 total\); 1 more$/m);
    expect(text).toMatch(/25\.0%/);
  });
});

describe('renderActionsJson', () => {
  it('keeps null for absent rates and echoes the thresholds', () => {
    const doc = JSON.parse(renderActionsJson(report([{ model: 'a', evaluation: ev({ fieldAccuracy: null }) }])));
    expect(doc.models[0].field_accuracy).toBeNull();
    expect(doc.models[0].field_rank).toBeNull();
    expect(doc.thresholds).toEqual({ f: 0.3 });
  });
});
