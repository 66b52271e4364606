/** A --store where no database can live is refused before any work, never a hang. */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../src/cli/test-support/in-process-cli.js';

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
