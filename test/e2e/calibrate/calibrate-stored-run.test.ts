/**
 * End-to-end: `calibrate RUN` on a stored benchmark of the built-in heuristic model (the
 * embedded reference server, a real SQLite store): one fit per question type against the
 * soft gold, held-out KL reported beside the other metrics.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-e2e-calibrate-run-');

describe('calibrate on a stored benchmark run', () => {
  it('fits the heuristic model per question type, checked on held-out cases', async () => {
    const store = join(tmp, 'runs.sqlite');
    const bench = await runCliInProcess(['bench', '--model', 'heuristic', '--store', store, '--json'], { cwd: tmp });
    expect(bench.code).toBe(0);
    const runId = (JSON.parse(bench.stdout) as { id: string }).id;
    const r = await runCliInProcess(['calibrate', runId, '--store', store, '--by', 'type', '--json'], { cwd: tmp });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      source: string;
      cases: number;
      groups: {
        key: string;
        decisions: number;
        status: string;
        parameters: { temperature: number } | null;
        held_out: { metrics: Record<string, { before: number; after: number }> };
      }[];
    };
    expect(doc.source).toBe('bench');
    expect(doc.cases).toBe(100);
    expect(doc.groups.map((g) => g.key)).toEqual(['choice', 'noul', 'score']);
    for (const g of doc.groups) {
      expect(g.status).toBe('fitted');
      expect(g.parameters!.temperature).toBeGreaterThan(0.05);
      expect(Object.keys(g.held_out.metrics)).toEqual(['accuracy', 'kl', 'brier', 'log_loss', 'ece']);
      expect(g.held_out.metrics['accuracy']!.after).toBe(g.held_out.metrics['accuracy']!.before);
    }
    const text = await runCliInProcess(['calibrate', runId, '--store', store, '--by', 'type'], { cwd: tmp });
    expect(text.stdout).toContain('Group "score"');
    expect(text.stdout).toMatch(/KL +\d/);
  });

  it('asks for a RUN or the offline files, once', async () => {
    const r = await runCliInProcess(['calibrate'], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr.match(/--help/g)).toHaveLength(1);
    expect(r.stderr).toContain('calibrate needs a stored RUN, or --dataset FILE and --results FILE');
  });

  it('refuses a RUN together with offline files', async () => {
    const r = await runCliInProcess(['calibrate', 'x', '--dataset', 'd.jsonl', '--results', 'r.jsonl'], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('calibrate takes a stored RUN or --dataset and --results, not both');
  });
});
