import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionCost,
  applyRules,
  checkActionSpec,
  compareActionModels,
  evaluateActions,
  fieldOf,
  groupActionItems,
  type ActionItems,
  type ActionSpec,
  type FieldValue,
} from './composed-actions.js';
import type { OfflineCase, OfflineResult } from './case.js';

/** The example action spec of docs/file-formats.md. */
const INBOX: ActionSpec = {
  actions: ['task', 'draft', 'ignore'],
  inaction: 'ignore',
  rules: [
    { when: [{ field: 'is_noise', condition: { kind: 'yes_no', value: true } }], action: 'ignore' },
    {
      when: [
        { field: 'needs_reply', condition: { kind: 'yes_no', value: true } },
        { field: 'urgent', condition: { kind: 'yes_no', value: true } },
      ],
      action: 'task',
    },
    { when: [{ field: 'needs_reply', condition: { kind: 'yes_no', value: true } }], action: 'draft' },
    { when: [], action: 'ignore' },
  ],
  costs: { 'task->ignore': 10, 'draft->ignore': 6, 'task->draft': 3 },
  defaultError: 1,
};

const FIELDS = ['is_noise', 'needs_reply', 'urgent'] as const;

/** Cases of one email: [is_noise, needs_reply, urgent]. */
function mail(n: number, values: readonly [boolean, boolean, boolean]): OfflineCase[] {
  return FIELDS.map((f, i) => ({ id: `mail-${n}:${f}`, kind: 'yes_no', group: `mail-${n}`, correct: values[i]! }));
}

/** Results giving P(yes) per field of email n. */
function answer(n: number, probs: readonly (number | undefined)[], model = 'm'): OfflineResult[] {
  return FIELDS.flatMap((f, i) =>
    probs[i] === undefined
      ? []
      : [{ caseId: `mail-${n}:${f}`, model, decision: { kind: 'yes_no' as const, probability: probs[i]! } }],
  );
}

function items(cases: OfflineCase[]): ActionItems {
  const g = groupActionItems(cases);
  if ('problems' in g) throw new Error(JSON.stringify(g.problems));
  return g.items;
}

const values = (o: Record<string, FieldValue>) => new Map(Object.entries(o));

describe('rules', () => {
  it('matches rules first to last, all conditions of a rule holding', () => {
    expect(applyRules(INBOX, values({ is_noise: true, needs_reply: true, urgent: true }))).toBe('ignore');
    expect(applyRules(INBOX, values({ is_noise: false, needs_reply: true, urgent: true }))).toBe('task');
    expect(applyRules(INBOX, values({ is_noise: false, needs_reply: true, urgent: false }))).toBe('draft');
    expect(applyRules(INBOX, values({ is_noise: false, needs_reply: false, urgent: true }))).toBe('ignore');
  });

  it('matches choice conditions by option name or list and score conditions by gte/lte', () => {
    const spec: ActionSpec = {
      actions: ['escalate', 'review', 'pass'],
      inaction: 'pass',
      rules: [
        { when: [{ field: 'severity', condition: { kind: 'score', gte: 8 } }], action: 'escalate' },
        {
          when: [
            { field: 'topic', condition: { kind: 'choice', options: ['legal', 'safety'] } },
            { field: 'severity', condition: { kind: 'score', gte: 3, lte: 7 } },
          ],
          action: 'review',
        },
        { when: [], action: 'pass' },
      ],
      costs: {},
      defaultError: 1,
    };
    expect(applyRules(spec, values({ severity: 8, topic: 'other' }))).toBe('escalate');
    expect(applyRules(spec, values({ severity: 7, topic: 'safety' }))).toBe('review');
    expect(applyRules(spec, values({ severity: 3, topic: 'legal' }))).toBe('review');
    expect(applyRules(spec, values({ severity: 2, topic: 'legal' }))).toBe('pass');
    expect(applyRules(spec, values({ severity: 5, topic: 'other' }))).toBe('pass');
  });
});

describe('actionCost', () => {
  const spec: ActionSpec = {
    ...INBOX,
    costs: { 'task->ignore': 10, 'task->*': 5, '*->ignore': 4, '*->*': 2 },
    defaultError: 7,
  };

  it('costs nothing when the action is right', () => {
    expect(actionCost(spec, 'task', 'task')).toBe(0);
  });

  it('applies gold->pred, then gold->*, then *->pred, then *->*', () => {
    expect(actionCost(spec, 'task', 'ignore')).toBe(10);
    expect(actionCost(spec, 'task', 'draft')).toBe(5);
    expect(actionCost(spec, 'draft', 'ignore')).toBe(4);
    expect(actionCost(spec, 'draft', 'task')).toBe(2);
  });

  it('falls back to default_error when no key matches', () => {
    expect(actionCost({ ...spec, costs: { 'task->ignore': 10 } }, 'ignore', 'task')).toBe(7);
  });

  it('reads keys as gold->pred', () => {
    expect(actionCost(INBOX, 'task', 'ignore')).toBe(10);
    expect(actionCost(INBOX, 'ignore', 'task')).toBe(1);
  });
});

describe('groupActionItems', () => {
  it('takes the field from `field`, else from the id after its last colon', () => {
    expect(fieldOf({ id: 'a:b:urgent', kind: 'yes_no', group: 'a:b', correct: true })).toBe('urgent');
    expect(fieldOf({ id: 'x', kind: 'yes_no', group: 'g', field: 'urgent', correct: true })).toBe('urgent');
  });

  it('fails naming a group that lacks a field the others have', () => {
    const cases = [
      ...mail(1, [false, true, true]),
      ...mail(2, [false, true, false]).filter((c) => !c.id.endsWith('urgent')),
    ];
    const g = groupActionItems(cases);
    expect('problems' in g && g.problems).toEqual([
      expect.objectContaining({
        group: 'mail-2',
        field: 'urgent',
        message: expect.stringMatching(/group mail-2 is missing field 'urgent'/),
      }),
    ]);
  });

  it('fails when a field changes kind between groups', () => {
    const cases: OfflineCase[] = [
      ...mail(1, [false, true, true]),
      { id: 'mail-2:is_noise', kind: 'choice', group: 'mail-2', options: ['y', 'n'], correct: 'y', correctIndex: 0 },
      ...mail(2, [false, true, true]).slice(1),
    ];
    const g = groupActionItems(cases);
    expect('problems' in g && g.problems[0]?.message).toMatch(
      /field 'is_noise' is choice \[y, n\] in group mail-2 but yes_no in group mail-1/,
    );
  });

  it('fails when the dataset has no grouped cases', () => {
    const g = groupActionItems([{ id: 'a', kind: 'yes_no', correct: true }]);
    expect('problems' in g && g.problems[0]?.message).toMatch(/no grouped cases/);
  });
});

describe('checkActionSpec', () => {
  const schema = new Map([
    ['is_noise', { kind: 'yes_no' as const }],
    ['topic', { kind: 'choice' as const, options: ['billing', 'bug'] }],
    ['severity', { kind: 'score' as const, scoreMin: 0, scoreMax: 10 }],
  ]);

  it('accepts conditions of the right type', () => {
    const spec: ActionSpec = {
      ...INBOX,
      rules: [
        {
          when: [
            { field: 'is_noise', condition: { kind: 'yes_no', value: false } },
            { field: 'topic', condition: { kind: 'choice', options: ['bug'] } },
            { field: 'severity', condition: { kind: 'score', gte: 5 } },
          ],
          action: 'task',
        },
        { when: [], action: 'ignore' },
      ],
    };
    expect(checkActionSpec(spec, schema)).toEqual([]);
  });

  it('names the rule and field of a condition on an unknown field', () => {
    const spec: ActionSpec = {
      ...INBOX,
      rules: [
        { when: [{ field: 'urgnt', condition: { kind: 'yes_no', value: true } }], action: 'task' },
        { when: [], action: 'ignore' },
      ],
    };
    expect(checkActionSpec(spec, schema)).toEqual([
      {
        rule: 1,
        field: 'urgnt',
        message: expect.stringMatching(
          /^rule 1 \(task\): condition on unknown field 'urgnt' \(fields: is_noise, topic, severity\)/,
        ),
      },
    ]);
  });

  it('names a condition on an unknown option', () => {
    const spec: ActionSpec = { ...INBOX, rules: [{ when: [], action: 'ignore' }] };
    const bad: ActionSpec = {
      ...spec,
      rules: [
        { when: [{ field: 'topic', condition: { kind: 'choice', options: ['bug', 'sales'] } }], action: 'task' },
        ...spec.rules,
      ],
    };
    expect(checkActionSpec(bad, schema)).toEqual([
      {
        rule: 1,
        field: 'topic',
        message: expect.stringMatching(/field 'topic' has no option 'sales' \(options: billing, bug\)/),
      },
    ]);
  });

  it('names a condition of the wrong type', () => {
    const bad: ActionSpec = {
      ...INBOX,
      rules: [
        { when: [{ field: 'severity', condition: { kind: 'yes_no', value: true } }], action: 'task' },
        { when: [], action: 'ignore' },
      ],
    };
    expect(checkActionSpec(bad, schema)[0]?.message).toMatch(
      /rule 1 \(task\): field 'severity' is score 0\.\.10, but the condition is for a yes_no field/,
    );
  });
});

describe('evaluateActions', () => {
  const cases = [
    ...mail(1, [false, true, true]),
    ...mail(2, [false, true, false]),
    ...mail(3, [true, false, false]),
    ...mail(4, [false, false, false]),
  ];
  const it4 = items(cases);

  it('prices a task turned into an ignore at the task->ignore cost', () => {
    // mail-1 is a task; the model calls it noise.
    const results = [
      ...answer(1, [0.7, 0.9, 0.9]),
      ...answer(2, [0.1, 0.9, 0.1]),
      ...answer(3, [0.9, 0.1, 0.1]),
      ...answer(4, [0.1, 0.1, 0.1]),
    ];
    const e = evaluateActions(INBOX, it4, results);
    expect(e.items).toBe(4);
    expect(e.actionAccuracy).toBe(0.75);
    expect(e.totalCost).toBe(10);
    expect(e.meanCostPerItem).toBe(2.5);
    expect(e.fieldAccuracy).toBe(11 / 12);
    expect(e.actionableItems).toBe(2);
    expect(e.falseInactionRate).toBe(0.5);
    expect(e.confusions).toEqual([{ gold: 'task', pred: 'ignore', count: 1, unitCost: 10, totalCost: 10 }]);
  });

  it('prices the reverse error, an ignore turned into a task, at ignore->task', () => {
    const results = [
      ...answer(1, [0.1, 0.9, 0.9]),
      ...answer(2, [0.1, 0.9, 0.1]),
      ...answer(3, [0.1, 0.9, 0.9]),
      ...answer(4, [0.1, 0.1, 0.1]),
    ];
    const e = evaluateActions(INBOX, it4, results);
    expect(e.confusions).toEqual([{ gold: 'ignore', pred: 'task', count: 1, unitCost: 1, totalCost: 1 }]);
    expect(e.falseInactionRate).toBe(0);
  });

  it('excludes and counts a group the model answered only partly', () => {
    const results = [...answer(1, [0.1, 0.9, 0.9]), ...answer(2, [0.1, 0.9, undefined]), ...answer(3, [0.9, 0.1, 0.1])];
    const e = evaluateActions(INBOX, it4, results);
    expect(e.items).toBe(2);
    expect(e.incompleteItems).toBe(1);
    expect(e.unansweredItems).toBe(1);
    expect(e.fieldDecisions).toBe(6);
  });

  it('applies a per-field threshold', () => {
    const results = [
      ...answer(1, [0.1, 0.9, 0.4]),
      ...answer(2, [0.1, 0.9, 0.1]),
      ...answer(3, [0.9, 0.1, 0.1]),
      ...answer(4, [0.1, 0.1, 0.1]),
    ];
    expect(evaluateActions(INBOX, it4, results).confusions[0]).toMatchObject({
      gold: 'task',
      pred: 'draft',
      unitCost: 3,
    });
    expect(evaluateActions(INBOX, it4, results, { thresholds: new Map([['urgent', 0.3]]) }).actionAccuracy).toBe(1);
  });

  it('predicts a choice field from `picked`, else the most likely option', () => {
    const spec: ActionSpec = {
      actions: ['fix', 'none'],
      inaction: 'none',
      rules: [
        { when: [{ field: 'kind', condition: { kind: 'choice', options: ['bug'] } }], action: 'fix' },
        { when: [], action: 'none' },
      ],
      costs: {},
      defaultError: 1,
    };
    const c: OfflineCase[] = [
      { id: 't1:kind', kind: 'choice', group: 't1', options: ['bug', 'question'], correct: 'bug', correctIndex: 0 },
      { id: 't2:kind', kind: 'choice', group: 't2', options: ['bug', 'question'], correct: 'bug', correctIndex: 0 },
    ];
    const r: OfflineResult[] = [
      { caseId: 't1:kind', model: 'm', decision: { kind: 'choice', probabilities: [0.3, 0.7], pickedIndex: 0 } },
      { caseId: 't2:kind', model: 'm', decision: { kind: 'choice', probabilities: [0.5, 0.5] } },
    ];
    expect(evaluateActions(spec, items(c), r).actionAccuracy).toBe(1);
  });

  it('leaves the false-inaction rate absent without an inaction action', () => {
    const e = evaluateActions({ ...INBOX, inaction: null }, it4, answer(1, [0.1, 0.9, 0.9]));
    expect(e.falseInactionRate).toBeNull();
  });

  it('leaves every rate absent when no group is complete', () => {
    const e = evaluateActions(INBOX, it4, []);
    expect(e).toMatchObject({
      items: 0,
      fieldAccuracy: null,
      actionAccuracy: null,
      meanCostPerItem: null,
      falseInactionRate: null,
    });
  });

  it('gives a model that copies gold accuracy 1, cost 0 and no false inaction', () => {
    const triple = fc.tuple(fc.boolean(), fc.boolean(), fc.boolean());
    fc.assert(
      fc.property(
        fc.array(triple, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0.501, max: 1, noNaN: true }),
        (emails, confidence) => {
          const cs = emails.flatMap((v, n) => mail(n, v));
          const rs = emails.flatMap((v, n) =>
            answer(
              n,
              v.map((yes) => (yes ? confidence : 1 - confidence)),
            ),
          );
          const e = evaluateActions(INBOX, items(cs), rs);
          return (
            e.actionAccuracy === 1 &&
            e.fieldAccuracy === 1 &&
            e.meanCostPerItem === 0 &&
            (e.falseInactionRate === null || e.falseInactionRate === 0)
          );
        },
      ),
      { seed: 42, numRuns: 100 },
    );
  });
});

describe('compareActionModels', () => {
  const ev = (fieldAccuracy: number | null, meanCostPerItem: number | null) => ({
    items: 1,
    incompleteItems: 0,
    unansweredItems: 0,
    fieldAccuracy,
    fieldDecisions: 1,
    actionAccuracy: 1,
    meanCostPerItem,
    totalCost: 0,
    falseInactionRate: null,
    actionableItems: 0,
    confusions: [],
  });

  it('ranks by field accuracy (highest first) and by action cost (lowest first)', () => {
    const c = compareActionModels([
      { model: 'fieldsharp', evaluation: ev(0.97, 0.83) },
      { model: 'actionwise', evaluation: ev(0.89, 0.17) },
    ]);
    expect(c.models.map((m) => [m.model, m.fieldRank, m.actionRank])).toEqual([
      ['fieldsharp', 1, 2],
      ['actionwise', 2, 1],
    ]);
    expect(c.byFieldAccuracy).toEqual([['fieldsharp'], ['actionwise']]);
    expect(c.byActionCost).toEqual([['actionwise'], ['fieldsharp']]);
  });

  it('shares a rank on ties and leaves absent values unranked', () => {
    const c = compareActionModels([
      { model: 'a', evaluation: ev(0.9, 1) },
      { model: 'b', evaluation: ev(0.9, 2) },
      { model: 'c', evaluation: ev(0.8, null) },
      { model: 'd', evaluation: ev(null, 0.5) },
    ]);
    expect(c.models.map((m) => m.fieldRank)).toEqual([1, 1, 3, null]);
    expect(c.models.map((m) => m.actionRank)).toEqual([2, 3, null, 1]);
    expect(c.byFieldAccuracy).toEqual([['a', 'b'], ['c']]);
  });
});
