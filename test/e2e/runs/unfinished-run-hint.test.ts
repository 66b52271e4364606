/**
 * `runs gate` and `runs compare` on a run stopped part way refuse it with the command that
 * finishes it, run id and store included: the hint is pasted here (its words run as typed)
 * and the gate then judges the finished run. The real CLI in process, the embedded reference
 * server, a real SQLite store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-unfinished-hint-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: tmp };
let server: ReferenceServer;

beforeAll(async () => {
  // Slow enough answers that Ctrl+C comes before every case is in.
  server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 25 } });
});
afterAll(() => server.close());

/** The run id a bench printed ("run ID saved" or "run ID is incomplete"). */
function runIdOf(text: string): string {
  const id = /(?:run|--resume) (\d{8}-\d{6}-[0-9a-f]{4})/.exec(text)?.[1];
  expect(id, text).toBeDefined();
  return id!;
}

describe('runs gate on a run stopped part way', () => {
  it('prints a resume hint with the run id and store that finishes the run when pasted', async () => {
    const bench = ['bench', '--base-url', server.url, '--limit', '20', '--parallel', '1', '--store', store];
    const baseline = await runCliInProcess(bench, { env });
    expect(baseline.code, baseline.stderr).toBe(0);
    const baselineId = runIdOf(baseline.stderr + baseline.stdout);
    const controller = new AbortController();
    const stopped = await runCliInProcess(bench, {
      env,
      signal: controller.signal,
      onStderr: (text) => {
        if (/progress: [1-9]/.test(text)) controller.abort();
      },
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    const candidateId = runIdOf(stopped.stderr + stopped.stdout);
    expect(candidateId).not.toBe(baselineId);

    const refused = await runCliInProcess(
      ['runs', 'gate', '--baseline', baselineId, '--candidate', candidateId, '--store', store],
      { env },
    );
    expect(refused.code).toBe(1);
    const hint = /finish it with: (decidekit [^;]+);/.exec(refused.stderr)?.[1];
    expect(hint, refused.stderr).toBe(`decidekit bench --resume ${candidateId} --store ${store}`);

    const [, ...argv] = hint!.split(' ');
    const resumed = await runCliInProcess(argv, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const gated = await runCliInProcess(
      ['runs', 'gate', '--baseline', baselineId, '--candidate', candidateId, '--store', store],
      { env },
    );
    expect(gated.stderr).not.toContain('cannot compare');
    expect(gated.code, gated.stderr).toBe(0);
  });
});
