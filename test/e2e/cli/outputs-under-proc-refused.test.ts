/** A --store or --out under a kernel file system is refused before any work, never a hang. */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';

describe('--store under /proc', () => {
  it('is a usage error before any work, for bench and for runs list (no hang)', async () => {
    const bench = await runCliInProcess(['bench', '--limit', '1', '--store', '/proc/decidekit/runs.sqlite']);
    expect(bench.code).toBe(2);
    expect(bench.stdout).toBe('');
    expect(bench.stderr).toContain('the run store cannot live under /proc: /proc/decidekit/runs.sqlite');
    const list = await runCliInProcess(['runs', 'list', '--store', '/proc/self/status']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('the run store cannot live under /proc: /proc/self/status');
  });
});

describe('--out and --html under /proc', () => {
  it('is a usage error before any work for bench, probe, audit and score --html (no hang)', async () => {
    const offline = 'data/moderation';
    for (const argv of [
      ['bench', '--limit', '1', '--no-store', '--out', '/proc/decidekit'],
      ['probe', '--cases', '1', '--no-store', '--out', '/proc/decidekit'],
      ['audit', '--no-store', '--out', '/proc/decidekit'],
      [
        'score',
        '--dataset',
        `${offline}/dataset.jsonl`,
        '--results',
        `${offline}/results-careful-1.jsonl`,
        '--html',
        '/proc/decidekit/a/score.html',
      ],
    ]) {
      const run = await runCliInProcess(argv);
      expect({ argv, code: run.code }).toEqual({ argv, code: 2 });
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/\/proc\/decidekit\S*: cannot be under \/proc, a kernel file system/);
    }
  });
});
