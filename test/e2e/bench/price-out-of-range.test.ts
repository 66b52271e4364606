/** End to end: a price per million tokens too large to give a finite cost is a usage error. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-e2e-price-');
const bench = (price: string) =>
  runCliInProcess(['bench', '--no-store', '--limit', '3', '--price-per-mtok', price], {
    cwd: dir,
    env: { XDG_DATA_HOME: join(dir, 'data') },
  });

describe('bench --price-per-mtok', () => {
  it('refuses a price that would overflow the cost, naming the option and its range', async () => {
    const r = await bench('1e308');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('decidekit bench: --price-per-mtok "1e308" is not valid (a number >= 0 and <= 1000000)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('prices a run at the largest price allowed with a finite cost', async () => {
    const r = await bench('1000000');
    expect(r.code, r.stderr).toBe(0);
    const cost = r.stdout.split('\n').find((l) => l.startsWith('Cost'))!;
    expect(cost).toMatch(/^Cost\s+\$[\d,.]+ at /);
  });
});
