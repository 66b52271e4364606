/**
 * `runs show` of a finished run reads the intervals and ECE noise floor the bench stored
 * beside its summary instead of every decision, and shows exactly what computing them
 * from the decisions shows. The real CLI in process (the embedded reference server), a
 * real SQLite store.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-show-statistics-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { columns: 200 });
let id = '';

/** Every `runs show` variant checked below, keyed by its extra options. */
const VARIANTS: readonly (readonly string[])[] = [
  [],
  ['--json'],
  ['--no-ci'],
  ['--no-ci', '--json'],
  ['--seed', '7', '--json'],
  ['--ece-binning', 'equal-mass', '--json'],
];

async function showAll(): Promise<string[]> {
  const out: string[] = [];
  for (const extra of VARIANTS) {
    const r = await cli(['runs', 'show', id, ...extra]);
    expect(r.code, r.stderr).toBe(0);
    out.push(r.stdout);
  }
  return out;
}

/** Reads the store's statistics column of the run (null when none is kept). */
function storedStatistics(): string | null {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT statistics_json FROM runs WHERE id = ?').get(id) as { statistics_json: string | null })
      .statistics_json;
  } finally {
    db.close();
  }
}

function setStoredStatistics(json: string | null): void {
  const db = new Database(store);
  try {
    db.prepare('UPDATE runs SET statistics_json = ? WHERE id = ?').run(json, id);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  const bench = await cli(['bench', '--seed', '3']);
  expect(bench.code, bench.stderr).toBe(0);
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    id = s.runs.list()[0]!.id;
  } finally {
    s.close();
  }
}, 60_000);

describe('runs show and the statistics stored with a run', () => {
  it('a finished bench keeps its statistics, under its own conventions and seed', () => {
    const kept = JSON.parse(storedStatistics()!) as { conventions: { seed: number }; intervals: object | null };
    expect(kept.conventions.seed).toBe(3);
    expect(kept.intervals).not.toBeNull();
  });

  it('reads them rather than the decisions (a changed copy is what it shows)', async () => {
    const kept = storedStatistics()!;
    const changed = JSON.parse(kept) as { intervals: { accuracy: { low: number } } };
    changed.intervals.accuracy.low = 0.123456;
    setStoredStatistics(JSON.stringify(changed));
    const r = await cli(['runs', 'show', id, '--json']);
    setStoredStatistics(kept);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('0.123456');
  });

  it('shows the same with the stored statistics as computed from every decision, in every variant', async () => {
    const fromStored = await showAll();
    expect(fromStored[1]).toMatch(/"accuracy_ci"|"intervals"/);
    const kept = storedStatistics();
    setStoredStatistics(null);
    const computed = await showAll();
    setStoredStatistics(kept);
    expect(computed).toEqual(fromStored);
  });

  it('drops them once a case is saved into the run again (a resume or retry rewrites its summary)', () => {
    const s = openStore(store, { mustExist: true });
    try {
      expect(s.runs.statistics(id)).not.toBeNull();
      s.cases.save(id, [s.runs.get(id)!.cases[0]!]);
      expect(s.runs.head(id)!.status).toBe('running');
      expect(s.runs.statistics(id)).toBeNull();
    } finally {
      s.close();
    }
  });
});
