/**
 * Commands that read a stored run against one read of its rows, on the same run: `runs
 * report --format markdown` of an N-case run (default 20,000) and `runs compare` of two,
 * each against two floors in their own processes: the run's rows read once with plain
 * better-sqlite3 (the two SELECTs the store's read uses, every column touched), and one
 * pass of decidekit's own case iterator (`store.cases.iterate`, the rows made into cases).
 * The runs are made first by `bench` on a scale dataset with the embedded server (outside
 * the timing). Within each repetition the commands alternate in rotating order; medians of
 * wall time and CPU (user + sys), peak RSS (/usr/bin/time -v), the 1-minute load average
 * when each started.
 *
 *   npm run build && npx tsx bench/stored-report.bench.ts [--cases 20000] [--runs 5] [--before CLI] [--all]
 *
 * `--all`: also `report RUN`, `runs export` in each format and `runs gate`, each against the
 * floor of its run count.
 * `--before CLI`: another build's `dist/cli/main.js` (an older commit's, say), timed on the
 * same runs beside this one (with `--all`, its `runs gate` and `runs export` in each format too).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeScaleDataset } from './make-scale-dataset.js';
import { HAS_TIME, measure, type Measured } from './offline-data.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';
import { openStore } from '../src/store/index.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '5' },
    before: { type: 'string' },
    all: { type: 'boolean', default: false },
  },
});
const CASES = Number(values.cases);
const RUNS = Math.max(1, Number(values.runs));
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-stored-report-'));
const store = join(tmp, 'runs.sqlite');

/** The floor of plain SQLite: both SELECTs of the store's read, every row stepped (as an array, as the store reads it) and every column read. */
function rowsFloor(runIds: readonly string[]): string[] {
  const script = `import Database from 'better-sqlite3';
const db = new Database(${JSON.stringify(store)}, { readonly: true });
let cells = 0;
const touch = (row) => { for (const v of row) if (v !== null) cells++; };
for (const id of ${JSON.stringify(runIds)}) {
  for (const row of db.prepare('SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model FROM cases WHERE run_id = ? ORDER BY position').raw().iterate(id)) touch(row);
  for (const row of db.prepare('SELECT c.case_id, d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status, d.predicted, d.correct, d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_position = c.position WHERE c.run_id = ? ORDER BY c.position, d.position').raw().iterate(id)) touch(row);
}
process.stdout.write(String(cells));`;
  return ['--input-type=module', '-e', script];
}

/** The floor of decidekit's own read: one pass of the store's case iterator over each run. */
function iterateFloor(runIds: readonly string[]): string[] {
  const script = `import { openStore } from ${JSON.stringify(join(ROOT, 'dist', 'store', 'index.js'))};
const store = openStore(${JSON.stringify(store)}, { mustExist: true, readOnly: true });
let decisions = 0;
for (const id of ${JSON.stringify(runIds)}) for (const c of store.cases.iterate(id)) decisions += c.decisions.length;
store.close();
process.stdout.write(String(decisions));`;
  return ['--input-type=module', '-e', script];
}

function cli(args: readonly string[]): void {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0)
    throw new Error(`decidekit ${args.join(' ')} failed (${r.status}): ${String(r.stderr).slice(-500)}`);
}

interface Timed extends Measured {
  readonly load: string;
}

const timed = (args: readonly string[]): Timed => ({ load: oneMinuteLoad(), ...measure(process.execPath, args) });

try {
  const dataset = join(tmp, `scale-${CASES}.jsonl`);
  writeScaleDataset(dataset, CASES, 1);
  for (const model of ['heuristic', 'prior'])
    cli(['bench', '--dataset', dataset, '--parallel', '32', '--model', model, '--store', store]);
  const s = openStore(store, { mustExist: true, readOnly: true });
  const [b, a] = s.runs.list().map((h) => h.id) as [string, string];
  s.close();
  const report = join(tmp, 'report.md');
  const exportTo = (ext: string) => join(tmp, `export.${ext}`);
  type Group = 'one' | 'two';
  const commands: Record<string, { args: string[]; group: Group }> = {
    '`runs report --format markdown --out FILE` (one run)': {
      args: [CLI, 'runs', 'report', a, '--format', 'markdown', '--out', report, '--store', store],
      group: 'one',
    },
    'floor: its rows read once, plain better-sqlite3 (one run)': { args: rowsFloor([a]), group: 'one' },
    "floor: one pass of the store's case iterator (one run)": { args: iterateFloor([a]), group: 'one' },
    '`runs compare A B` (two runs)': { args: [CLI, 'runs', 'compare', a, b, '--store', store], group: 'two' },
    'floor: both runs read once, plain better-sqlite3': { args: rowsFloor([a, b]), group: 'two' },
    "floor: one pass of the store's case iterator over each run": { args: iterateFloor([a, b]), group: 'two' },
  };
  if (values.all === true) {
    commands['`report RUN --out FILE` (one run)'] = {
      args: [CLI, 'report', a, '--out', report, '--store', store],
      group: 'one',
    };
    for (const format of ['jsonl', 'csv', 'parquet'])
      commands[`\`runs export --format ${format}\` (one run)`] = {
        args: [CLI, 'runs', 'export', a, '--format', format, '--out', exportTo(format), '--store', store],
        group: 'one',
      };
    commands['`runs gate --baseline B --candidate A` (two runs)'] = {
      args: [CLI, 'runs', 'gate', '--baseline', b, '--candidate', a, '--store', store],
      group: 'two',
    };
  }
  if (values.before !== undefined) {
    commands['`runs report --format markdown --out FILE`, the build before'] = {
      args: [values.before, 'runs', 'report', a, '--format', 'markdown', '--out', report, '--store', store],
      group: 'one',
    };
    commands['`runs compare A B`, the build before'] = {
      args: [values.before, 'runs', 'compare', a, b, '--store', store],
      group: 'two',
    };
    if (values.all === true) {
      commands['`runs gate --baseline B --candidate A`, the build before'] = {
        args: [values.before, 'runs', 'gate', '--baseline', b, '--candidate', a, '--store', store],
        group: 'two',
      };
      for (const format of ['jsonl', 'csv', 'parquet'])
        commands[`\`runs export --format ${format}\`, the build before`] = {
          args: [values.before, 'runs', 'export', a, '--format', format, '--out', exportTo(format), '--store', store],
          group: 'one',
        };
    }
  }
  const names = Object.keys(commands);
  const results = new Map<string, Timed[]>(names.map((n) => [n, []]));
  for (let i = 0; i < RUNS; i++) {
    // Rotating order: each command goes first in turn.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]!;
      results.get(name)!.push(timed(commands[name]!.args));
    }
  }
  const stat = (name: string) => {
    const all = results.get(name)!;
    return {
      wall: median(all.map((m) => m.seconds)),
      cpu: median(all.map((m) => m.cpuSeconds)),
      rss: Math.max(...all.map((m) => m.maxRssMb)),
      all,
    };
  };
  const lines = [
    `Command: \`npx tsx bench/stored-report.bench.ts --cases ${CASES} --runs ${RUNS}${values.before === undefined ? '' : ' --before CLI'}${values.all === true ? ' --all' : ''}\` (after \`npm run build\`); two ${CASES.toLocaleString('en-US')}-case runs stored by \`bench --parallel 32\` (store ${(statSync(store).size / 1e6).toFixed(0)} MB, Markdown report ${(statSync(report).size / 1e6).toFixed(1)} MB)`,
    machineLine(HAS_TIME),
    '',
    '| what | median wall (s) | median CPU user+sys (s) | peak RSS (MB) | runs: wall s (CPU s) @ 1-min load |',
    '|---|---:|---:|---:|---|',
  ];
  for (const name of names) {
    const t = stat(name);
    lines.push(
      `| ${name} | ${t.wall.toFixed(2)} | ${t.cpu.toFixed(2)} | ${t.rss.toFixed(0)} | ${t.all.map((m) => `${m.seconds.toFixed(2)} (${m.cpuSeconds.toFixed(2)}) @ ${m.load}`).join(', ')} |`,
    );
  }
  lines.push('');
  // Each command against the floors of its group (one run or two), as ratios of medians.
  const floors = {
    one: [
      'floor: its rows read once, plain better-sqlite3 (one run)',
      "floor: one pass of the store's case iterator (one run)",
    ],
    two: [
      'floor: both runs read once, plain better-sqlite3',
      "floor: one pass of the store's case iterator over each run",
    ],
  } as const;
  for (const name of names.filter((n) => !n.startsWith('floor'))) {
    const t = stat(name);
    const group = commands[name]!.group as 'one' | 'two';
    const [rows, iterate] = floors[group].map(stat);
    lines.push(
      `- ${name}: wall ${(t.wall / rows!.wall).toFixed(2)}x and CPU ${(t.cpu / rows!.cpu).toFixed(2)}x plain better-sqlite3; wall ${(t.wall / iterate!.wall).toFixed(2)}x and CPU ${(t.cpu / iterate!.cpu).toFixed(2)}x the store's case iterator.`,
    );
  }
  lines.push('', `Load average after: ${oneMinuteLoad()}`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
