/**
 * `runs compare --force` of runs over overlapping but different cases takes every number from
 * one base, the cases both runs have: the headline and the per-question deltas alike, and says
 * so in every format. The real CLI in process, the embedded reference server on the bundled
 * sample, a real SQLite store; expectations computed here from the runs' own decisions.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

interface Decision {
  case_id: string;
  workflow: string;
  question_id: string;
  status: string;
  correct: boolean;
  kl: number | null;
  brier: number | null;
}
interface Delta {
  a: number | null;
  b: number | null;
  delta: number | null;
}
interface QuestionRow {
  key: string;
  total: Delta;
  accuracy: Delta;
  kl: Delta;
  brier: Delta;
}

const dir = tempFolderRemovedAfterAll('decidekit-compare-by-question-');
const store = join(dir, 'runs.sqlite');
const cli = (args: string[]): Promise<CliResult> =>
  runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });

async function bench(args: string[]): Promise<{ id: string; decisions: Decision[] }> {
  const r = await cli(['bench', '--store', store, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; decisions: Decision[] };
}

/** Per question: decisions, accuracy and mean KL and Brier over the answered, of the cases in `caseIds`. */
function byQuestionOver(decisions: readonly Decision[], caseIds: ReadonlySet<string>) {
  const groups = new Map<string, Decision[]>();
  for (const d of decisions.filter((x) => caseIds.has(x.case_id))) {
    const key = `${d.workflow}/${d.question_id}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  return new Map(
    [...groups].map(([key, ds]) => {
      const answered = ds.filter((d) => d.status === 'answered');
      return [
        key,
        {
          total: ds.length,
          accuracy: ds.filter((d) => d.correct).length / ds.length,
          kl: mean(answered.map((d) => d.kl!)),
          brier: mean(answered.map((d) => d.brier!)),
        },
      ];
    }),
  );
}

let a: { id: string; decisions: Decision[] };
let b: { id: string; decisions: Decision[] };
let shared: Set<string>;

beforeAll(async () => {
  a = await bench(['--limit', '20', '--label', 'A']);
  b = await bench(['--limit', '10', '--model', 'prior', '--label', 'B']);
  const inB = new Set(b.decisions.map((d) => d.case_id));
  shared = new Set(a.decisions.map((d) => d.case_id).filter((id) => inB.has(id)));
}, 60_000);

describe('runs compare --force over overlapping cases, by question', () => {
  it('takes every per-question number from the cases both runs have', async () => {
    expect(shared.size).toBe(10);
    const r = await cli(['runs', 'compare', a.id, b.id, '--force', '--store', store, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { by_question: QuestionRow[]; by_question_over: unknown };
    expect(doc.by_question_over).toEqual({
      cases: 'shared_cases',
      shared_cases: 10,
      cases_only_in_a: 10,
      cases_only_in_b: 0,
    });
    const expectedA = byQuestionOver(a.decisions, shared);
    const expectedB = byQuestionOver(b.decisions, shared);
    expect(doc.by_question.map((q) => q.key)).toEqual([...expectedA.keys()].sort());
    for (const q of doc.by_question) {
      const [ea, eb] = [expectedA.get(q.key)!, expectedB.get(q.key)!];
      expect([q.total.a, q.total.b], q.key).toEqual([ea.total, eb.total]);
      expect(q.accuracy.a, q.key).toBeCloseTo(ea.accuracy, 12);
      expect(q.accuracy.b, q.key).toBeCloseTo(eb.accuracy, 12);
      expect(q.accuracy.delta, q.key).toBeCloseTo(eb.accuracy - ea.accuracy, 12);
      expect(q.kl.delta, q.key).toBeCloseTo(eb.kl! - ea.kl!, 12);
      expect(q.brier.delta, q.key).toBeCloseTo(eb.brier! - ea.brier!, 12);
    }
  });

  it('says in the text and the HTML page that the per-question rows are over the shared cases', async () => {
    const text = await cli(['runs', 'compare', a.id, b.id, '--force', '--store', store]);
    expect(text.code, text.stderr).toBe(0);
    const after = text.stdout.slice(text.stdout.indexOf('By question')).replace(/\s+/g, ' ');
    expect(after).toContain('over the 10 cases both runs have');
    const html = await cli(['runs', 'compare', a.id, b.id, '--force', '--store', store, '--format', 'html']);
    expect(html.code, html.stderr).toBe(0);
    const perQuestion = html.stdout.slice(html.stdout.indexOf('Per question, B - A'));
    expect(perQuestion.slice(0, 600)).toContain('over the 10 cases both runs have');
  });

  it('keeps whole runs, and says nothing of shared cases, when both runs have the same cases', async () => {
    const again = await bench(['--limit', '20', '--model', 'prior']);
    const r = await cli(['runs', 'compare', a.id, again.id, '--store', store, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { by_question: QuestionRow[]; by_question_over: unknown };
    expect(doc.by_question_over).toEqual({ cases: 'whole_runs' });
    const all = new Set(a.decisions.map((d) => d.case_id));
    for (const q of doc.by_question) expect(q.total.a).toBe(byQuestionOver(a.decisions, all).get(q.key)!.total);
  });
});
