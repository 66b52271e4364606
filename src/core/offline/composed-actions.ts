/**
 * Composed actions (docs/scoring.md, "Offline: actions"): field decisions of one grouped item
 * are composed into an action by ordered rules, and action errors are priced by a cost table
 * keyed "gold->pred". Pure: the spec file is parsed in src/datasets/action-spec.ts.
 */
import { assertNever } from '../question.js';
import { ExactSum } from '../exact-sum.js';
import type { OfflineCase, OfflineResult } from './case.js';
import { DEFAULT_YES_NO_THRESHOLD, predictedAnswer } from './prediction.js';

/** A condition on one field of an item. */
export type FieldCondition =
  | { readonly kind: 'yes_no'; readonly value: boolean }
  | { readonly kind: 'choice'; readonly options: readonly string[] }
  | { readonly kind: 'score'; readonly gte?: number; readonly lte?: number };

export interface ActionCondition {
  readonly field: string;
  readonly condition: FieldCondition;
}

export interface ActionRule {
  /** All must hold; empty for the final default rule. */
  readonly when: readonly ActionCondition[];
  readonly action: string;
}

export interface ActionSpec {
  readonly actions: readonly string[];
  /** The "do nothing" action; null when the spec names none (false-inaction rate is then absent). */
  readonly inaction: string | null;
  /** First match wins; the last rule has no conditions. */
  readonly rules: readonly ActionRule[];
  /** "gold->pred" -> cost; either side may be "*". */
  readonly costs: Readonly<Record<string, number>>;
  /** Cost of an error no key covers. Default 1. */
  readonly defaultError: number;
}

export const DEFAULT_ERROR_COST = 1;
export const WILDCARD = '*';

/** A field's type, as every group of the dataset has it. */
export type FieldSchema =
  | { readonly kind: 'yes_no' }
  | { readonly kind: 'choice'; readonly options: readonly string[] }
  | { readonly kind: 'score'; readonly scoreMin: number; readonly scoreMax: number };

/** Fields in first-seen order. */
export type ItemSchema = ReadonlyMap<string, FieldSchema>;

/** One field value: yes/no, an option name, or a score. */
export type FieldValue = boolean | string | number;

/** A problem with the spec or the dataset's groups; the caller adds the file name. */
export interface ActionProblem {
  /** 1-based rule number, when the problem is in a rule. */
  readonly rule?: number;
  readonly group?: string;
  readonly caseId?: string;
  readonly field?: string;
  readonly message: string;
}

/** The field name of a grouped case: `field`, else the part of the id after its last ':'. */
export function fieldOf(c: OfflineCase): string {
  return c.field ?? c.id.slice(c.id.lastIndexOf(':') + 1);
}

/** One item: the cases of a group, by field. */
export interface ActionItem {
  readonly group: string;
  readonly cases: ReadonlyMap<string, OfflineCase>;
}

export interface ActionItems {
  readonly schema: ItemSchema;
  /** In first-seen order. */
  readonly items: readonly ActionItem[];
}

function schemaOf(c: OfflineCase): FieldSchema {
  switch (c.kind) {
    case 'yes_no':
      return { kind: 'yes_no' };
    case 'choice':
      return { kind: 'choice', options: c.options };
    case 'score':
      return { kind: 'score', scoreMin: c.scoreMin, scoreMax: c.scoreMax };
    default:
      return assertNever(c);
  }
}

function describeSchema(s: FieldSchema): string {
  switch (s.kind) {
    case 'yes_no':
      return 'yes_no';
    case 'choice':
      return `choice [${s.options.join(', ')}]`;
    case 'score':
      return `score ${s.scoreMin}..${s.scoreMax}`;
    default:
      return assertNever(s);
  }
}

function sameSchema(a: FieldSchema, b: FieldSchema): boolean {
  return describeSchema(a) === describeSchema(b);
}

/**
 * Groups the dataset's grouped cases into items. Every group must have the same set of
 * fields, each of the same kind (and, for choice, the same options); a field may appear
 * once per group. Ungrouped cases are ignored.
 */
export function groupActionItems(cases: Iterable<OfflineCase>): { items: ActionItems } | { problems: ActionProblem[] } {
  const groups = new Map<string, Map<string, OfflineCase>>();
  const schema = new Map<string, FieldSchema>();
  const firstSeenIn = new Map<string, string>();
  const problems: ActionProblem[] = [];
  for (const c of cases) {
    if (c.group === undefined) continue;
    const field = fieldOf(c);
    let fields = groups.get(c.group);
    if (fields === undefined) groups.set(c.group, (fields = new Map()));
    const dup = fields.get(field);
    if (dup !== undefined) {
      problems.push({
        group: c.group,
        caseId: c.id,
        field,
        message: `group ${c.group} has field '${field}' twice (also case ${dup.id})`,
      });
      continue;
    }
    fields.set(field, c);
    const s = schemaOf(c);
    const known = schema.get(field);
    if (known === undefined) {
      schema.set(field, s);
      firstSeenIn.set(field, c.group);
    } else if (!sameSchema(known, s)) {
      problems.push({
        group: c.group,
        caseId: c.id,
        field,
        message: `field '${field}' is ${describeSchema(s)} in group ${c.group} but ${describeSchema(known)} in group ${firstSeenIn.get(field)} (every group must have the same fields)`,
      });
    }
  }
  if (groups.size === 0)
    return {
      problems: [
        { message: 'no grouped cases: actions needs cases with a "group" (one item per group, one case per field)' },
      ],
    };
  const allFields = [...schema.keys()];
  for (const [group, fields] of groups) {
    const lacking = allFields.filter((f) => !fields.has(f));
    for (const f of lacking) {
      problems.push({
        group,
        field: f,
        message: `group ${group} is missing field '${f}' (every group must have the same fields: ${allFields.join(', ')})`,
      });
    }
  }
  if (problems.length > 0) return { problems };
  return { items: { schema, items: [...groups].map(([group, cases]) => ({ group, cases })) } };
}

/**
 * Checks a spec's rules against the fields of the dataset: every condition names a known
 * field, has the field's type, and names only options the field has.
 */
export function checkActionSpec(spec: ActionSpec, schema: ItemSchema): ActionProblem[] {
  const problems: ActionProblem[] = [];
  const known = [...schema.keys()].join(', ');
  spec.rules.forEach((rule, i) => {
    const where = `rule ${i + 1} (${rule.action})`;
    for (const { field, condition } of rule.when) {
      const s = schema.get(field);
      if (s === undefined) {
        problems.push({
          rule: i + 1,
          field,
          message: `${where}: condition on unknown field '${field}' (fields: ${known})`,
        });
        continue;
      }
      if (s.kind !== condition.kind) {
        problems.push({
          rule: i + 1,
          field,
          message: `${where}: field '${field}' is ${describeSchema(s)}, but the condition is for a ${condition.kind} field (${conditionHint(s)})`,
        });
        continue;
      }
      if (s.kind === 'choice' && condition.kind === 'choice') {
        for (const o of condition.options) {
          if (!s.options.includes(o))
            problems.push({
              rule: i + 1,
              field,
              message: `${where}: field '${field}' has no option '${o}' (options: ${s.options.join(', ')})`,
            });
        }
      }
    }
  });
  return problems;
}

function conditionHint(s: FieldSchema): string {
  switch (s.kind) {
    case 'yes_no':
      return 'use true or false';
    case 'choice':
      return 'use an option name or a list of them';
    case 'score':
      return 'use {"gte": n}, {"lte": n} or both';
    default:
      return assertNever(s);
  }
}

function holds(condition: FieldCondition, value: FieldValue | undefined): boolean {
  switch (condition.kind) {
    case 'yes_no':
      return value === condition.value;
    case 'choice':
      return typeof value === 'string' && condition.options.includes(value);
    case 'score':
      return (
        typeof value === 'number' &&
        (condition.gte === undefined || value >= condition.gte) &&
        (condition.lte === undefined || value <= condition.lte)
      );
    default:
      return assertNever(condition);
  }
}

/** The action of the first rule whose conditions all hold. */
export function applyRules(spec: ActionSpec, values: ReadonlyMap<string, FieldValue>): string {
  for (const rule of spec.rules) {
    if (rule.when.every(({ field, condition }) => holds(condition, values.get(field)))) return rule.action;
  }
  // A checked spec ends in a rule without conditions, so this is unreachable for it.
  return spec.rules[spec.rules.length - 1]?.action ?? '';
}

/** Cost of predicting `pred` when `gold` was right: 0 if equal, else gold->pred, gold->*, *->pred, *->*, default_error. */
export function actionCost(spec: ActionSpec, gold: string, pred: string): number {
  if (gold === pred) return 0;
  for (const key of [`${gold}->${pred}`, `${gold}->${WILDCARD}`, `${WILDCARD}->${pred}`, `${WILDCARD}->${WILDCARD}`]) {
    const c = spec.costs[key];
    if (c !== undefined) return c;
  }
  return spec.defaultError;
}

export interface ActionConfusion {
  readonly gold: string;
  readonly pred: string;
  readonly count: number;
  readonly unitCost: number;
  readonly totalCost: number;
}

export interface ActionEvaluation {
  /** Fully answered groups. */
  readonly items: number;
  /** Groups the model answered only partly: excluded. */
  readonly incompleteItems: number;
  /** Groups the model did not answer at all: excluded. */
  readonly unansweredItems: number;
  /** Correct yes_no and choice field decisions of the scored items / such fields; null when none. */
  readonly fieldAccuracy: number | null;
  readonly fieldDecisions: number;
  readonly actionAccuracy: number | null;
  readonly meanCostPerItem: number | null;
  readonly totalCost: number;
  /** Of items whose gold action is not the inaction, the share predicted as the inaction. */
  readonly falseInactionRate: number | null;
  /** Items whose gold action is not the inaction. */
  readonly actionableItems: number;
  /** Wrong gold->pred pairs, costliest total first. */
  readonly confusions: readonly ActionConfusion[];
}

export interface ActionEvaluateOptions {
  /** Yes/no threshold per field; default 0.5 (predicted yes iff p >= threshold). */
  readonly thresholds?: ReadonlyMap<string, number>;
}

/** Scores one model's saved decisions as composed actions. */
export function evaluateActions(
  spec: ActionSpec,
  items: ActionItems,
  results: Iterable<OfflineResult>,
  options: ActionEvaluateOptions = {},
): ActionEvaluation {
  const byCase = new Map<string, OfflineResult>();
  for (const r of results) byCase.set(r.caseId, r);
  let scored = 0,
    incomplete = 0,
    unanswered = 0;
  let fieldDecisions = 0,
    fieldCorrect = 0,
    actionCorrect = 0,
    actionable = 0,
    falseInaction = 0;
  const cost = new ExactSum();
  const pairs = new Map<string, { gold: string; pred: string; count: number }>();
  for (const item of items.items) {
    const gold = new Map<string, FieldValue>();
    const pred = new Map<string, FieldValue>();
    for (const [field, c] of item.cases) {
      gold.set(field, c.correct);
      const r = byCase.get(c.id);
      if (r !== undefined)
        pred.set(field, predictedAnswer(c, r.decision, options.thresholds?.get(field) ?? DEFAULT_YES_NO_THRESHOLD));
    }
    if (pred.size === 0) {
      unanswered++;
      continue;
    }
    if (pred.size < item.cases.size) {
      incomplete++;
      continue;
    }
    scored++;
    for (const [field, c] of item.cases) {
      if (c.kind === 'score') continue;
      fieldDecisions++;
      if (pred.get(field) === gold.get(field)) fieldCorrect++;
    }
    const g = applyRules(spec, gold);
    const p = applyRules(spec, pred);
    cost.add(actionCost(spec, g, p));
    if (g === p) actionCorrect++;
    else {
      const key = `${g}->${p}`;
      const entry = pairs.get(key);
      if (entry) entry.count++;
      else pairs.set(key, { gold: g, pred: p, count: 1 });
    }
    if (spec.inaction !== null && g !== spec.inaction) {
      actionable++;
      if (p === spec.inaction) falseInaction++;
    }
  }
  const confusions = [...pairs.values()]
    .map(({ gold, pred, count }) => {
      const unitCost = actionCost(spec, gold, pred);
      return { gold, pred, count, unitCost, totalCost: unitCost * count };
    })
    .sort((a, b) => b.totalCost - a.totalCost || b.count - a.count || cmp(a.gold, b.gold) || cmp(a.pred, b.pred));
  return {
    items: scored,
    incompleteItems: incomplete,
    unansweredItems: unanswered,
    fieldAccuracy: fieldDecisions === 0 ? null : fieldCorrect / fieldDecisions,
    fieldDecisions,
    actionAccuracy: scored === 0 ? null : actionCorrect / scored,
    meanCostPerItem: scored === 0 ? null : cost.value() / scored,
    totalCost: cost.value(),
    falseInactionRate: spec.inaction === null || actionable === 0 ? null : falseInaction / actionable,
    actionableItems: actionable,
    confusions,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface RankedModel {
  readonly model: string;
  readonly evaluation: ActionEvaluation;
  /** Competition rank (1, 2, 2, 4) by field accuracy, highest first; null when absent. */
  readonly fieldRank: number | null;
  /** Competition rank by mean cost per item, lowest first; null when absent. */
  readonly actionRank: number | null;
}

export interface ActionComparison {
  readonly models: readonly RankedModel[];
  /** Model names, best first, with ties grouped: [["a"], ["b", "c"]]. */
  readonly byFieldAccuracy: readonly (readonly string[])[];
  readonly byActionCost: readonly (readonly string[])[];
}

/** Ranks models by field accuracy and by action cost; models keep the order given. */
export function compareActionModels(
  models: readonly { readonly model: string; readonly evaluation: ActionEvaluation }[],
): ActionComparison {
  const field = rankBy(models, (m) => m.evaluation.fieldAccuracy, 'desc');
  const action = rankBy(models, (m) => m.evaluation.meanCostPerItem, 'asc');
  return {
    models: models.map((m, i) => ({
      model: m.model,
      evaluation: m.evaluation,
      fieldRank: field.ranks[i] ?? null,
      actionRank: action.ranks[i] ?? null,
    })),
    byFieldAccuracy: field.order,
    byActionCost: action.order,
  };
}

function rankBy<T extends { readonly model: string }>(
  xs: readonly T[],
  key: (x: T) => number | null,
  dir: 'asc' | 'desc',
): { ranks: (number | null)[]; order: string[][] } {
  const present = xs.map((x, i) => ({ i, v: key(x) })).filter((e): e is { i: number; v: number } => e.v !== null);
  present.sort((a, b) => (dir === 'asc' ? a.v - b.v : b.v - a.v) || a.i - b.i);
  const ranks: (number | null)[] = xs.map(() => null);
  const order: string[][] = [];
  present.forEach((e, pos) => {
    const prev = present[pos - 1];
    if (prev !== undefined && prev.v === e.v) {
      ranks[e.i] = ranks[prev.i]!;
      order[order.length - 1]!.push(xs[e.i]!.model);
    } else {
      ranks[e.i] = pos + 1;
      order.push([xs[e.i]!.model]);
    }
  });
  return { ranks, order };
}
