/** `decidekit runs check` on a real store: clean, then with one stored decision changed. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../src/cli/test-support/in-process-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'decidekit-runs-check-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('runs check', () => {
  it('passes a clean store and names the run whose stored decision was changed', async () => {
    const store = join(tmp, 'runs.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '4', '--store', store]);
    expect(bench.code, bench.stderr).toBe(0);
    const clean = await runCliInProcess(['runs', 'check', '--store', store]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/1 run checked; every one reads back as it was saved/);

    const db = new Database(store);
    db.prepare('UPDATE decisions SET correct = 1 - correct WHERE rowid = (SELECT min(rowid) FROM decisions)').run();
    db.close();
    const bad = await runCliInProcess(['runs', 'check', '--store', store, '--json']);
    expect(bad.code).toBe(1);
    const doc = JSON.parse(bad.stdout) as { runs: { problems: string[] }[] };
    expect(doc.runs[0]!.problems.length).toBeGreaterThan(0);
  });
});
