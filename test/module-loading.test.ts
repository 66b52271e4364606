/**
 * The product rooms at run time: the built CLI, run with module hooks that list every module
 * it loads (scripts/module-count.mjs), shows that `audit`, `probe` and `live` load no module
 * of the benchmark's machinery: the bench runner, the store's case writer thread, the bench
 * HTML page. `bench` is measured the same way and does load them, so the hooks see them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

interface Measured {
  readonly command: string;
  readonly own: number;
  readonly modules: string[];
  readonly machinery: { readonly runner: string[]; readonly storeWriter: string[]; readonly benchHtml: string[] };
  readonly postgresPackages: string[];
  readonly postgresAdapter: string[];
}

async function measure(...commands: string[]): Promise<Measured[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(root, 'scripts', 'module-count.mjs'), '--json', ...commands],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Measured[];
}

describe('modules each command loads', () => {
  it('audit, probe and live load no bench runner, store writer or bench HTML page; bench does', async () => {
    const measured = await measure('audit --out', 'probe --out', 'live', 'bench');
    const machinery = Object.fromEntries(measured.map((m) => [m.command, m.machinery]));
    const none = { runner: [], storeWriter: [], benchHtml: [] };
    expect(machinery['audit --out']).toEqual(none);
    expect(machinery['probe --out']).toEqual(none);
    expect(machinery['live']).toEqual(none);
    expect(machinery['bench']).toEqual({
      runner: expect.arrayContaining(['runner/run-benchmark.js']),
      storeWriter: expect.arrayContaining(['store/writer/case-writer.js', 'store/writer/case-writer-worker.js']),
      benchHtml: ['reports/bench/bench-html.js'],
    });
    for (const m of measured) expect(m.own).toBeGreaterThan(20);
  }, 120_000);

  it('bench and runs list on a SQLite store load neither the PostgreSQL driver nor the shard queue', async () => {
    const measured = await measure('bench', 'runs list');
    expect(measured.map((m) => [m.command, m.postgresPackages])).toEqual([
      ['bench', []],
      ['runs list', []],
    ]);
  }, 120_000);

  it('runs list, runs report and runs compare on a SQLite store load no module of the PostgreSQL adapter', async () => {
    const measured = await measure('runs list', 'runs report', 'runs compare');
    expect(measured.map((m) => [m.command, m.postgresAdapter, m.postgresPackages])).toEqual([
      ['runs list', [], []],
      ['runs report', [], []],
      ['runs compare', [], []],
    ]);
    // The comparison did run: its own code is among the modules.
    expect(measured[2]!.modules).toContain('core/bench/run-diff.js');
  }, 180_000);

  it("runs report and runs export load their own subcommand's code, not the other runs subcommands'", async () => {
    const [report, exported] = await measure('runs report', 'runs export');
    const others = (m: Measured, own: string) =>
      m.modules.filter(
        (path) =>
          (path.startsWith('cli/commands/runs/') && path !== `cli/commands/runs/${own}.js`) ||
          // What listing, comparing and gating runs need, and the store sync.
          path === 'app/runs/stored-runs.js' ||
          path.startsWith('app/runs/copy-') ||
          ['core/bench/run-diff.js', 'core/bench/run-gate.js', 'core/bench/leaderboard.js'].includes(path),
      );
    expect(others(report!, 'report')).toEqual([]);
    expect(others(exported!, 'export')).toEqual([]);
    // Neither reads a dataset: the file sniffers that check one given as a path stay unloaded.
    expect([...report!.modules, ...exported!.modules].filter((path) => path === 'cli/wrong-file.js')).toEqual([]);
    // A JSONL export renders no report.
    expect(exported!.modules.filter((path) => path.startsWith('reports/bench/'))).toEqual([]);
  }, 120_000);
});
