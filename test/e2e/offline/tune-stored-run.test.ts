/**
 * End to end: `tune RUN` on a real stored benchmark run (the built-in heuristic model on the
 * bundled sample), per yes/no question, against counts and a pairwise AUC computed here from
 * the stored decisions.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStore } from '../../../src/store/open-store.js';

const tmp = tempFolderRemovedAfterAll('decidekit-tune-run-');
const store = join(tmp, 'runs.sqlite');
let runId = '';

/** Per yes/no question: (P(true), gold label true) of each answered decision. */
function storedYesNo(): Map<string, { p: number; yes: boolean }[]> {
  const s = openStore(store, { mustExist: true, readOnly: true });
  const out = new Map<string, { p: number; yes: boolean }[]>();
  try {
    for (const c of s.cases.iterate(runId))
      for (const d of c.decisions) {
        if (d.type !== 'noul' || d.outcome.status !== 'answered') continue;
        const key = `${c.workflow}/${d.questionId}`;
        const list = out.get(key) ?? [];
        list.push({ p: d.outcome.probabilities[d.answers.indexOf('true')]!, yes: d.gold.label === 'true' });
        out.set(key, list);
      }
  } finally {
    s.close();
  }
  return out;
}

function pairwiseAuc(d: { p: number; yes: boolean }[]): number {
  let credit = 0;
  let pairs = 0;
  for (const a of d)
    for (const b of d) {
      if (!a.yes || b.yes) continue;
      pairs++;
      credit += a.p > b.p ? 1 : a.p === b.p ? 0.5 : 0;
    }
  return credit / pairs;
}

beforeAll(async () => {
  const bench = await runCliInProcess(['bench', '--limit', '60', '--store', store, '--json']);
  expect(bench.code, bench.stderr).toBe(0);
  const list = await runCliInProcess(['runs', 'list', '--store', store, '--json']);
  runId = (JSON.parse(list.stdout) as { runs: { id: string }[] }).runs[0]!.id;
});

describe('tune RUN', () => {
  it('tunes each yes/no question of the stored run on its own, with its ranking', async () => {
    const r = await runCliInProcess(['tune', runId.slice(0, 19), '--store', store, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      run: string;
      questions: { question: string; counts?: { n: number; positives: number }; ranking?: { roc_auc: number } }[];
    };
    expect(doc.run).toBe(runId);
    const expected = storedYesNo();
    expect(doc.questions.map((q) => q.question)).toEqual([...expected.keys()].sort());
    for (const q of doc.questions) {
      const d = expected.get(q.question)!;
      if (q.counts === undefined) continue; // skipped: one class only
      expect(q.counts.n).toBe(d.length);
      expect(q.counts.positives).toBe(d.filter((x) => x.yes).length);
      expect(q.ranking!.roc_auc).toBeCloseTo(pairwiseAuc(d), 12);
    }
    const text = await runCliInProcess(['tune', runId, '--store', store]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`decidekit tune: run ${runId}`);
    expect(text.stdout).toMatch(/ranking +ROC AUC \d\.\d{3}/);
  });

  it('refuses a stored run given with files, --store without a run, and neither, each in one line (exit 2)', async () => {
    const data = join(import.meta.dirname, '..', '..', '..', 'data', 'moderation');
    const files = ['--dataset', join(data, 'dataset.jsonl'), '--results', join(data, 'results-loud-1.jsonl')];
    for (const [args, message] of [
      [['tune', runId, '--store', store, ...files], 'not both'],
      [['tune', '--store', store, ...files], '--store goes with a stored run'],
      [['tune'], 'tune needs --dataset and --results, or a stored run'],
      [['tune', runId, '--store', store, '--html', join(tmp, 'x.html')], '--html goes with --dataset'],
    ] as const) {
      const r = await runCliInProcess([...args], { cwd: tmp });
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('names an unknown run', async () => {
    const r = await runCliInProcess(['tune', 'zzzz', '--store', store]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/zzzz/);
  });
});
