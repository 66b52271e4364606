/**
 * A `--retry-failed` resume stopped before it re-sent every failed case: the failed cases
 * not re-sent yet are still in the store, so the run's summary and stored statistics count
 * them (before, they were left out: a summary of fewer cases than the store held, which
 * `runs check` called BAD), and the resume hint keeps --retry-failed. The real CLI in
 * process, the real reference server on 127.0.0.1, a real SQLite store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-retry-interrupted-');
const store = join(tmp, 'runs.sqlite');
let server: ReferenceServer;
let runId = '';
let failedFirst = 0;
let resumed = { code: 0, stderr: '' };

beforeAll(async () => {
  server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { failRate: 0.4, latencyMs: 20 } });
  const first = await runCliInProcess(['bench', '--base-url', server.url, '--retries', '0', '--store', store]);
  expect(first.code, first.stderr).toBe(1);
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    const [head] = s.runs.list();
    runId = head!.id;
    failedFirst = s.runs.info(runId)!.summary.requests.failed;
  } finally {
    s.close();
  }
  expect(failedFirst).toBeGreaterThan(10);
  // Re-send the failed cases one at a time, and stop after the first few came back.
  const controller = new AbortController();
  resumed = await runCliInProcess(
    ['bench', '--resume', runId, '--retry-failed', '--retries', '0', '--parallel', '1', '--store', store],
    {
      signal: controller.signal,
      onStderr: (text) => {
        if ((text.match(/progress: /g) ?? []).length >= 1 && /progress: [1-9]/.test(text)) controller.abort();
      },
    },
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('a --retry-failed resume stopped part way', () => {
  it('is interrupted, with a hint that keeps --retry-failed', () => {
    expect(resumed.code, resumed.stderr).toBe(130);
    expect(resumed.stderr).toContain(
      `interrupted; 100 of 100 cases kept. Resume with: decidekit bench --resume ${runId} --retry-failed --store ${store}`,
    );
  });

  it('sums every stored case, re-sent or not, and reads back clean', async () => {
    const s = openStore(store, { mustExist: true, readOnly: true });
    try {
      const info = s.runs.info(runId)!;
      expect(info.summary.requests.total).toBe(100);
      // Some failed cases were not re-sent: they still count, as failures.
      expect(info.summary.requests.failed).toBeGreaterThan(0);
      expect(s.runs.statistics(runId)?.cases ?? 100).toBe(100);
    } finally {
      s.close();
    }
    const check = await runCliInProcess(['runs', 'check', runId, '--store', store]);
    expect(check.code, check.stdout).toBe(0);
    const show = await runCliInProcess(['runs', 'show', runId, '--store', store]);
    expect(show.stdout).toContain("bootstrap resamples of the run's 100 cases");
  });
});
