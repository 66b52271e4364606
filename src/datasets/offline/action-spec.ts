/**
 * Loads and checks an action spec file (docs/file-formats.md, "Action spec") into a core
 * ActionSpec, and checks it, and the dataset's groups, against the dataset's fields. Every
 * problem names the file and the rule or field; all problems are reported together.
 */
import { given } from '../../core/given.js';
import { jsonProblemMessage, parseStrictJson } from '../../core/strict-json.js';
import { readFile } from 'node:fs/promises';
import { MAX_RESULT_MEASURE } from '../../core/offline/case.js';
import {
  DEFAULT_ERROR_COST,
  WILDCARD,
  checkActionSpec,
  groupActionItems,
  type ActionCondition,
  type ActionItems,
  type ActionProblem,
  type ActionRule,
  type ActionSpec,
  type FieldCondition,
} from '../../core/offline/composed-actions.js';
import { DecidekitError, InvalidInputError, type InputProblem } from '../../core/errors.js';
import { isFiniteNumber, isNonEmptyString, isRecord, preview } from '../../core/json-value.js';
import type { OfflineDataset } from './dataset.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { refuseIrregularFile } from '../input-file.js';

const SPEC_KEYS = new Set(['actions', 'inaction', 'rules', 'costs', 'default_error']);
const RULE_KEYS = new Set(['when', 'action']);

/** Reads and parses a spec file. Throws InvalidInputError listing every problem. */
export async function loadActionSpec(path: string): Promise<ActionSpec> {
  let text: string;
  try {
    await refuseIrregularFile(path);
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new DecidekitError('file_unreadable', `cannot read action spec: ${path} (${fileErrorWords(err)})`, {
      context: { file: path },
      cause: err,
    });
  }
  return parseActionSpec(text, path);
}

/**
 * Parses the JSON text of a spec. Structure only: whether conditions fit the dataset's
 * fields is {@link refuseActionSpecMisfit}. Throws InvalidInputError listing every problem.
 */
export function parseActionSpec(text: string, file: string): ActionSpec {
  const problems: InputProblem[] = [];
  const fail = (field: string | undefined, message: string) =>
    problems.push({ file, line: null, ...given({ field }), message });
  const parsed = parseStrictJson(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    fail(undefined, jsonProblemMessage(parsed));
    throw new InvalidInputError(problems);
  }
  const raw = parsed.value;
  if (!isRecord(raw)) {
    fail(undefined, `expected a JSON object with "actions", "rules" and "costs", got ${preview(raw)}`);
    throw new InvalidInputError(problems);
  }
  for (const key of Object.keys(raw)) {
    if (!SPEC_KEYS.has(key))
      fail(key, `unknown key ${JSON.stringify(key)} (expected actions, inaction, rules, costs, default_error)`);
  }

  const actions = parseActions(raw['actions'], fail);
  const known = new Set(actions ?? []);
  const isAction = (a: unknown): a is string => typeof a === 'string' && (actions === null || known.has(a));
  const actionList = actions === null ? '' : ` (actions: ${actions.join(', ')})`;

  let inaction: string | null = null;
  const rawInaction = raw['inaction'];
  if (rawInaction !== undefined && rawInaction !== null) {
    if (isNonEmptyString(rawInaction) && isAction(rawInaction)) inaction = rawInaction;
    else fail('inaction', `inaction must be one of the actions, got ${preview(rawInaction)}${actionList}`);
  }

  const rules = parseRules(raw['rules'], isAction, actionList, fail);

  const costs: Record<string, number> = {};
  const rawCosts = raw['costs'];
  if (rawCosts !== undefined && rawCosts !== null) {
    if (!isRecord(rawCosts)) fail('costs', `costs must be an object of "gold->pred": cost, got ${preview(rawCosts)}`);
    else {
      for (const [key, value] of Object.entries(rawCosts)) {
        const sides = key.split('->');
        const [gold, pred] = sides;
        if (sides.length !== 2 || gold === undefined || pred === undefined) {
          fail(`costs.${key}`, `costs key ${JSON.stringify(key)} must read "gold->pred" (either side may be "*")`);
          continue;
        }
        for (const side of [gold, pred]) {
          if (side !== WILDCARD && !isAction(side))
            fail(
              `costs.${key}`,
              `costs key ${JSON.stringify(key)} names unknown action ${JSON.stringify(side)}${actionList}`,
            );
        }
        if (gold === pred && gold !== WILDCARD)
          fail(
            `costs.${key}`,
            `costs key ${JSON.stringify(key)} prices a correct action (a correct action always costs 0)`,
          );
        const problem = costProblem(value);
        if (problem !== null) fail(`costs.${key}`, `cost of ${JSON.stringify(key)} ${problem}`);
        else costs[key] = value as number;
      }
    }
  }

  let defaultError = DEFAULT_ERROR_COST;
  const rawDefault = raw['default_error'];
  if (rawDefault !== undefined && rawDefault !== null) {
    const problem = costProblem(rawDefault);
    if (problem === null) defaultError = rawDefault as number;
    else fail('default_error', `default_error ${problem}`);
  }

  if (problems.length > 0 || actions === null || rules === null) throw new InvalidInputError(problems);
  return { actions, inaction, rules, costs, defaultError };
}

/** What is wrong with an error cost ("must be ..., got ..."), or null for a good one. */
function costProblem(value: unknown): string | null {
  if (!isFiniteNumber(value) || value < 0) return `must be a finite number >= 0, got ${preview(value)}`;
  // Costs are summed over items and models: a bound keeps every sum finite.
  if (value > MAX_RESULT_MEASURE)
    return `must be at most ${MAX_RESULT_MEASURE} (larger costs would overflow the sums), got ${preview(value)}`;
  return null;
}

type Fail = (field: string | undefined, message: string) => void;

function parseActions(raw: unknown, fail: Fail): string[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    fail(
      'actions',
      raw === undefined
        ? 'actions is missing (a list of action names)'
        : `actions must be a non-empty list of names, got ${preview(raw)}`,
    );
    return null;
  }
  const seen = new Set<string>();
  let ok = true;
  raw.forEach((a, i) => {
    if (!isNonEmptyString(a) || a === WILDCARD || a.includes('->')) {
      fail('actions', `actions[${i}] must be a non-empty name without "->" and not "*", got ${preview(a)}`);
      ok = false;
    } else if (seen.has(a)) {
      fail('actions', `actions lists ${JSON.stringify(a)} twice`);
      ok = false;
    } else seen.add(a);
  });
  return ok ? (raw as string[]) : null;
}

function parseRules(
  raw: unknown,
  isAction: (a: unknown) => a is string,
  actionList: string,
  fail: Fail,
): ActionRule[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    fail(
      'rules',
      raw === undefined
        ? 'rules is missing (a list ending in a default rule without "when")'
        : `rules must be a non-empty list, got ${preview(raw)}`,
    );
    return null;
  }
  const rules: ActionRule[] = [];
  let ok = true;
  raw.forEach((r, i) => {
    const n = i + 1;
    const last = i === raw.length - 1;
    if (!isRecord(r)) {
      fail(`rules[${i}]`, `rule ${n} must be an object with "when" and "action", got ${preview(r)}`);
      ok = false;
      return;
    }
    const action = r['action'];
    const label = `rule ${n}${typeof action === 'string' ? ` (${action})` : ''}`;
    for (const key of Object.keys(r)) {
      if (!RULE_KEYS.has(key)) {
        fail(`rules[${i}].${key}`, `${label}: unknown key ${JSON.stringify(key)} (expected when, action)`);
        ok = false;
      }
    }
    if (!isNonEmptyString(action) || !isAction(action)) {
      fail(`rules[${i}].action`, `${label}: action must be one of the actions, got ${preview(action)}${actionList}`);
      ok = false;
    }
    const when = r['when'];
    if (when === undefined) {
      if (!last) {
        fail(
          `rules[${i}].when`,
          `${label}: only the last rule may leave out "when" (the rules after it could never match)`,
        );
        ok = false;
      }
      if (typeof action === 'string') rules.push({ when: [], action });
      return;
    }
    if (last) {
      fail(
        `rules[${i}].when`,
        `${label}: the last rule must be a default without "when" (a spec without a default rule is invalid)`,
      );
      ok = false;
    }
    if (!isRecord(when) || Object.keys(when).length === 0) {
      fail(`rules[${i}].when`, `${label}: when must be an object of field conditions, got ${preview(when)}`);
      ok = false;
      return;
    }
    const conditions: ActionCondition[] = [];
    for (const [field, value] of Object.entries(when)) {
      const condition = parseCondition(value);
      if (typeof condition === 'string') {
        fail(`rules[${i}].when.${field}`, `${label}: condition on field '${field}' ${condition}`);
        ok = false;
      } else conditions.push({ field, condition });
    }
    if (typeof action === 'string') rules.push({ when: conditions, action });
  });
  return ok ? rules : null;
}

/** A condition, or what is wrong with it. */
function parseCondition(value: unknown): FieldCondition | string {
  const expected =
    'must be true/false (yes_no), an option name or list of names (choice), or {"gte": n} / {"lte": n} (score)';
  if (typeof value === 'boolean') return { kind: 'yes_no', value };
  if (isNonEmptyString(value)) return { kind: 'choice', options: [value] };
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isNonEmptyString)) return { kind: 'choice', options: value };
    return `${expected}, got ${preview(value)}`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    const { gte, lte } = value;
    if (keys.length === 0 || keys.some((k) => k !== 'gte' && k !== 'lte')) return `${expected}, got ${preview(value)}`;
    if ((gte !== undefined && !isFiniteNumber(gte)) || (lte !== undefined && !isFiniteNumber(lte)))
      return `gte/lte must be finite numbers, got ${preview(value)}`;
    if (isFiniteNumber(gte) && isFiniteNumber(lte) && gte > lte)
      return `can never hold: gte ${gte} is above lte ${lte}`;
    return { kind: 'score', ...(isFiniteNumber(gte) ? { gte } : {}), ...(isFiniteNumber(lte) ? { lte } : {}) };
  }
  return `${expected}, got ${preview(value)}`;
}

function toInputProblem(file: string, p: ActionProblem): InputProblem {
  return {
    file,
    line: null,
    ...given({ caseId: p.caseId, field: p.field }),
    message: p.message,
  };
}

/** The dataset's groups as items; throws InvalidInputError naming the dataset and group. */
export function actionItemsOf(dataset: OfflineDataset): ActionItems {
  const g = groupActionItems(dataset.cases);
  if ('problems' in g) throw new InvalidInputError(g.problems.map((p) => toInputProblem(dataset.path, p)));
  return g.items;
}

/** Refuses a spec whose conditions do not fit the dataset's fields: InvalidInputError naming the spec file, rule and field. */
export function refuseActionSpecMisfit(spec: ActionSpec, items: ActionItems, specFile: string): void {
  const problems = checkActionSpec(spec, items.schema);
  if (problems.length > 0) throw new InvalidInputError(problems.map((p) => toInputProblem(specFile, p)));
}
