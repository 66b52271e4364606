import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfflineCase } from '../../core/offline/case.js';
import { InvalidInputError, formatProblem } from '../../core/errors.js';
import { actionItemsOf, refuseActionSpecMisfit, loadActionSpec, parseActionSpec } from './action-spec.js';
import { tempFoldersRemovedAfterEach } from '../test-support/temp-folders.js';

/** The bundled inbox spec (written by scripts/make-inbox-sample.ts; the e2e tests check it regenerates). */
const SPEC = JSON.parse(readFileSync(join(import.meta.dirname, '../../../data/inbox/spec.json'), 'utf8')) as {
  readonly actions: string[];
  readonly inaction: string;
  readonly rules: unknown[];
  readonly costs: Record<string, number>;
  readonly default_error: number;
};

function problemsOf(f: () => unknown): string[] {
  try {
    f();
  } catch (err) {
    if (err instanceof InvalidInputError) return err.problems.map(formatProblem);
    throw err;
  }
  throw new Error('expected an InvalidInputError');
}

const parse = (value: unknown) => parseActionSpec(JSON.stringify(value), 'spec.json');

function cases(groups: Record<string, Record<string, boolean>>): OfflineCase[] {
  return Object.entries(groups).flatMap(([g, fields]) =>
    Object.entries(fields).map(([f, correct]) => ({
      id: `${g}:${f}`,
      kind: 'yes_no' as const,
      group: g,
      field: f,
      correct,
    })),
  );
}

describe('parseActionSpec', () => {
  it('parses the spec of the offline-scoring page', () => {
    const spec = parse(SPEC);
    expect(spec.actions).toEqual(['task', 'draft', 'ignore']);
    expect(spec.inaction).toBe('ignore');
    expect(spec.rules[1]).toEqual({
      action: 'task',
      when: [
        { field: 'needs_reply', condition: { kind: 'yes_no', value: true } },
        { field: 'urgent', condition: { kind: 'yes_no', value: true } },
      ],
    });
    expect(spec.rules[3]).toEqual({ when: [], action: 'ignore' });
    expect(spec.costs['task->ignore']).toBe(10);
    expect(spec.defaultError).toBe(1);
  });

  it('defaults default_error to 1 and reads choice and score conditions', () => {
    const spec = parse({
      actions: ['a', 'b'],
      rules: [{ when: { topic: ['x', 'y'], sev: { gte: 2, lte: 5 }, kind: 'z' }, action: 'a' }, { action: 'b' }],
    });
    expect(spec.defaultError).toBe(1);
    expect(spec.inaction).toBeNull();
    expect(spec.rules[0]!.when.map((c) => c.condition)).toEqual([
      { kind: 'choice', options: ['x', 'y'] },
      { kind: 'score', gte: 2, lte: 5 },
      { kind: 'choice', options: ['z'] },
    ]);
  });

  it('rejects a spec without a final default rule', () => {
    const msgs = problemsOf(() => parse({ ...SPEC, rules: SPEC.rules.slice(0, 3) }));
    expect(msgs).toEqual([
      'spec.json: rule 3 (draft): the last rule must be a default without "when" (a spec without a default rule is invalid)',
    ]);
  });

  it('rejects a default rule before the end', () => {
    const msgs = problemsOf(() => parse({ ...SPEC, rules: [{ action: 'ignore' }, ...SPEC.rules] }));
    expect(msgs[0]).toMatch(/rule 1 \(ignore\): only the last rule may leave out "when"/);
  });

  it('names the rule and field of a malformed condition', () => {
    const msgs = problemsOf(() =>
      parse({
        ...SPEC,
        rules: [{ when: { urgent: 'yes please', sev: { gt: 3 } }, action: 'task' }, { action: 'ignore' }],
      }),
    );
    expect(msgs).toEqual([
      expect.stringMatching(/^spec\.json: rule 1 \(task\): condition on field 'sev' must be true\/false/),
    ]);
    const msgs2 = problemsOf(() =>
      parse({ ...SPEC, rules: [{ when: { urgent: 3 }, action: 'task' }, { action: 'ignore' }] }),
    );
    expect(msgs2[0]).toMatch(/rule 1 \(task\): condition on field 'urgent' must be true\/false .* got 3/);
  });

  it('rejects unknown actions in rules, inaction and costs, and bad costs', () => {
    const msgs = problemsOf(() =>
      parse({
        ...SPEC,
        inaction: 'nothing',
        rules: [{ when: { urgent: true }, action: 'panic' }, { action: 'ignore' }],
        costs: { 'task->nope': 2, 'draft->ignore': -1, ignore: 3, 'task->task': 1 },
      }),
    );
    expect(msgs).toEqual([
      expect.stringMatching(/inaction must be one of the actions, got "nothing"/),
      expect.stringMatching(/rule 1 \(panic\): action must be one of the actions/),
      expect.stringMatching(/costs key "task->nope" names unknown action "nope"/),
      expect.stringMatching(/cost of "draft->ignore" must be a finite number >= 0, got -1/),
      expect.stringMatching(/costs key "ignore" must read "gold->pred"/),
      expect.stringMatching(/costs key "task->task" prices a correct action/),
    ]);
  });

  it('accepts wildcard cost keys', () => {
    expect(parse({ ...SPEC, costs: { '*->ignore': 4, 'task->*': 2, '*->*': 1 } }).costs).toEqual({
      '*->ignore': 4,
      'task->*': 2,
      '*->*': 1,
    });
  });

  it('rejects text that is not JSON, and unknown keys', () => {
    expect(problemsOf(() => parseActionSpec('{"actions": [', 'spec.json'))[0]).toMatch(/^spec\.json: not valid JSON/);
    expect(problemsOf(() => parse({ ...SPEC, cost: {} }))[0]).toMatch(/unknown key "cost"/);
  });
});

describe('loadActionSpec', () => {
  const freshFolder = tempFoldersRemovedAfterEach('decidekit-spec-');

  it('reads a spec file and names a missing one', async () => {
    const dir = freshFolder();
    const path = join(dir, 'spec.json');
    await writeFile(path, JSON.stringify(SPEC));
    expect((await loadActionSpec(path)).rules).toHaveLength(4);
    await expect(loadActionSpec(join(dir, 'nope.json'))).rejects.toThrow(
      /cannot read action spec: .*nope\.json \(no such file or folder\)/,
    );
  });
});

describe('checking a spec against the dataset', () => {
  const dataset = (cs: OfflineCase[]) => ({ path: 'inbox.jsonl', cases: cs, byId: new Map(cs.map((c) => [c.id, c])) });

  it('names the spec file, rule and field of a condition on an unknown field', () => {
    const items = actionItemsOf(dataset(cases({ m1: { is_noise: false, needs_reply: true, urgnt: true } })));
    const msgs = problemsOf(() => refuseActionSpecMisfit(parse(SPEC), items, 'spec.json'));
    expect(msgs).toEqual([expect.stringMatching(/^spec\.json: rule 2 \(task\): condition on unknown field 'urgent'/)]);
  });

  it('names the dataset and group missing a field', () => {
    const msgs = problemsOf(() =>
      actionItemsOf(
        dataset(
          cases({
            m1: { is_noise: false, needs_reply: true, urgent: true },
            m2: { is_noise: false, needs_reply: true },
          }),
        ),
      ),
    );
    expect(msgs).toEqual([expect.stringMatching(/^inbox\.jsonl: group m2 is missing field 'urgent'/)]);
  });
});
