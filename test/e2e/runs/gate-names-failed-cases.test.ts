/**
 * `runs gate` on a run whose requests partly failed says so on its line: how many cases
 * failed in each run, and how the gated metric counted them (misses in accuracy; left out
 * of KL, Brier, log loss and ECE, which are over answered decisions).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startLoopbackGate } from '../../support/loopback-gate.js';

const tmp = tempFolderRemovedAfterAll('decidekit-e2e-gate-failed-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: join(tmp, 'xdg'), XDG_CACHE_HOME: join(tmp, 'cache') };
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** The reference server behind a proxy that answers every third decide request with HTTP 500. */
async function flakyServer(): Promise<string> {
  const upstream = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic' });
  closers.push(() => upstream.close());
  let posts = 0;
  return startLoopbackGate(
    upstream.url,
    (req) => (req.method === 'POST' && ++posts % 3 === 0 ? { status: 500, message: 'overloaded' } : null),
    closers,
  );
}

async function benchId(argv: string[]): Promise<string> {
  const r = await runCliInProcess(['bench', '--store', store, '--limit', '30', '--json', ...argv], { env });
  return (JSON.parse(r.stdout) as { id: string }).id;
}

describe('runs gate over a run with failed requests', () => {
  it('names how many cases failed in each run and how the metric counted them', async () => {
    const healthy = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic' });
    closers.push(() => healthy.close());
    const baseline = await benchId(['--base-url', healthy.url]);
    const candidate = await benchId(['--base-url', await flakyServer(), '--retries', '0']);
    const gate = (metric: string) =>
      runCliInProcess(
        ['runs', 'gate', '--baseline', baseline, '--candidate', candidate, '--metric', metric, '--store', store],
        { env },
      );
    const kl = await gate('kl');
    expect(kl.stdout).toContain(
      '; failed cases: baseline 0 of 30, candidate 10 of 30 (their decisions are left out of KL, which is over answered decisions (gate on accuracy to count them as misses))',
    );
    const accuracy = await gate('accuracy');
    expect(accuracy.stdout).toContain(
      '; failed cases: baseline 0 of 30, candidate 10 of 30 (their decisions count as misses in accuracy)',
    );
  });
});
