/**
 * `score --engine duckdb` keeps its memory bounded: on files larger than DuckDB's memory
 * limit (set small here) it completes, spilling to its own temp folder, which is gone
 * afterwards; and it gives the in-process engine's numbers.
 */
import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreWithDuckDb } from '../../../src/app/offline/score-with-duckdb.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { createSeededRandom } from '../../../src/core/seeded-random.js';
import { DEFAULT_CONVENTIONS } from '../../../src/core/stats/conventions.js';

const dir = tempFolderRemovedAfterAll('decidekit-duckdb-memory-');
const CASES = 1_000_000;
const MEMORY_LIMIT = '200MB';

/** A dataset and results of `cases` cases (yes/no, choice and score), written in blocks. */
function writeFiles(dataset: string, results: string, cases: number): void {
  const random = createSeededRandom(5);
  const options = ['allow', 'flag', 'remove', 'escalate'];
  const prompt = 'Does this post violate the threats policy? Read the whole thread first.';
  const model = 'bench-model-large-2026-01';
  const d = openSync(dataset, 'w');
  const r = openSync(results, 'w');
  let cs: string[] = [];
  let rs: string[] = [];
  for (let i = 0; i < cases; i++) {
    const id = `case-${i}`;
    const kind = i % 3;
    if (kind === 0) {
      cs.push(JSON.stringify({ id, kind: 'yes_no', prompt, correct: random() < 0.5 }));
      rs.push(JSON.stringify({ case_id: id, model, decision: { probability: random() }, latency_ms: i % 997 }));
    } else if (kind === 1) {
      cs.push(JSON.stringify({ id, kind: 'choice', prompt, options, correct: options[i % 4] }));
      const w = options.map(() => random());
      const sum = w.reduce((a, b) => a + b, 0);
      rs.push(JSON.stringify({ case_id: id, model, decision: { probabilities: w.map((x) => x / sum) } }));
    } else {
      cs.push(JSON.stringify({ id, kind: 'score', prompt, score_min: 0, score_max: 10, correct: i % 11 }));
      rs.push(JSON.stringify({ case_id: id, model, decision: { value: random() * 10 }, cost_usd: random() / 1e3 }));
    }
    if (cs.length === 10_000 || i === cases - 1) {
      writeSync(d, `${cs.join('\n')}\n`);
      writeSync(r, `${rs.join('\n')}\n`);
      cs = [];
      rs = [];
    }
  }
  closeSync(d);
  closeSync(r);
}

describe('score --engine duckdb with a small memory limit', () => {
  it('scores files larger than the limit, leaves nothing in its temp folder, and gives the in-process numbers', async () => {
    const dataset = join(dir, 'dataset.jsonl');
    const results = join(dir, 'results.jsonl');
    writeFiles(dataset, results, CASES);
    expect(statSync(dataset).size + statSync(results).size).toBeGreaterThan(1.4 * 200 * 2 ** 20);
    // Its database file and spill files go to a temp folder of its own, under the temp root.
    const temp = join(dir, 'tmp');
    mkdirSync(temp);
    const scored = await scoreWithDuckDb(dataset, results, { memoryLimit: MEMORY_LIMIT, tempRoot: temp });
    expect(readdirSync(temp)).toEqual([]);
    expect(scored.summary.counts.nScored.total).toBe(CASES);
    const node = await runCliInProcess(
      ['score', '--dataset', dataset, '--results', results, '--json', '--no-ci'],
      inFolder(dir),
    );
    expect(node.code, node.stderr).toBe(0);
    const expected = JSON.parse(node.stdout) as Record<string, unknown>;
    expect(scored.summary.logLoss).toBe(expected['log_loss']);
    expect(scored.summary.meanConfidence).toBe(expected['mean_confidence']);
    expect(scored.conventions).toEqual(DEFAULT_CONVENTIONS);
    // A million cases through both engines: minutes on a busy machine, not the usual 30 s.
  }, 300_000);
});
