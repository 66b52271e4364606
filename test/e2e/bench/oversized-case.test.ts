/**
 * A case whose request is over the server's body cap gets a 413: that says something about
 * the case, not about the run's settings. It is a failed case like any other, never "the
 * first cases were all rejected the same way" (which stops a run, keeps no report, and used
 * to stop a `--resume --retry-failed` of that one case with "the first 1 requests").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'data', 'typed-decisions-sample', 'test.jsonl');
const tmp = tempFolderRemovedAfterAll('decidekit-oversized-');

/** The sample's first `n` cases, those at `huge` given a state over 100 KB. */
function datasetWith(name: string, n: number, huge: readonly number[]): string {
  const lines = readFileSync(SAMPLE, 'utf8').split('\n').slice(0, n);
  const path = join(tmp, name);
  writeFileSync(
    path,
    lines
      .map((l, i) =>
        huge.includes(i) ? JSON.stringify({ ...JSON.parse(l), state: { blob: 'y'.repeat(100_000) } }) : l,
      )
      .join('\n') + '\n',
  );
  return path;
}

describe('bench: a request over the server body cap', () => {
  it('is a failed case: the run is reported, and a --retry-failed resume of it reports too', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, maxBodyBytes: 50_000 });
    try {
      const dataset = datasetWith('one-huge.jsonl', 3, [1]);
      const store = join(tmp, 'one-huge.sqlite');
      const first = await runCliInProcess(['bench', '--base-url', server.url, '--dataset', dataset, '--store', store]);
      expect(first.code).toBe(1);
      expect(first.stdout).toMatch(/Requests\s+3 sent, 2 answered, 1 failed \(request_rejected 1\)/);
      const runId = /resume (\S+) --retry-failed/.exec(first.stderr)![1]!;

      const again = await runCliInProcess(['bench', '--resume', runId, '--retry-failed', '--store', store]);
      expect(again.stderr).not.toContain('stopped');
      expect(again.stderr).not.toContain('rejected the first');
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(
        /Requests\s+3 sent, 2 answered, 1 failed \(request_rejected 1\) · status incomplete/,
      );
      expect(again.stdout).toContain('HTTP 413');
      expect(again.stderr).toContain(`run ${runId} is incomplete (1 failed case)`);
    } finally {
      await server.close();
    }
  });

  it('keeps and reports a run whose every case is over the cap, instead of stopping it unsaved', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, maxBodyBytes: 50_000 });
    try {
      const dataset = datasetWith('all-huge.jsonl', 2, [0, 1]);
      const store = join(tmp, 'all-huge.sqlite');
      const r = await runCliInProcess(['bench', '--base-url', server.url, '--dataset', dataset, '--store', store]);
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain('stopped');
      expect(r.stdout).toMatch(/Requests\s+2 sent, 0 answered, 2 failed \(request_rejected 2\)/);
      const listed = await runCliInProcess(['runs', 'list', '--store', store]);
      expect(listed.stdout).toMatch(/incomplete/);
    } finally {
      await server.close();
    }
  });

  it('still stops a run whose first cases are all rejected the same way for a setting (an unknown model)', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, router: true });
    try {
      const r = await runCliInProcess([
        'bench',
        '--base-url',
        server.url,
        '--model',
        'laya',
        '--limit',
        '1',
        '--no-store',
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('stopped: the server rejected the only request: HTTP 400');
    } finally {
      await server.close();
    }
  });
});
