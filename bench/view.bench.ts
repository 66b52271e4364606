/**
 * `decidekit view` on a big run: how fast the run page (`/runs/ID`) answers for an N-case
 * run (default 100,000; 500,000 decisions), served by the built CLI in its own process.
 * The run is made first by `bench --parallel 32` on a scale dataset (outside the timing),
 * which keeps what the run page lists with the run. Requests: the run page the first time
 * (its numbers and listings read from the store, no case), the run page again, the last page
 * of its trace (sought by position), the trace filtered to one question's wrong decisions
 * (its first page and its last, which reads the cases up to it), and the list. Then the
 * same run in a copy of the store without its kept listings (as a run stored before they
 * were kept): its first view reads every case once, then its last trace page. Each is timed
 * by wall clock here and by the server's CPU (user + sys from /proc/PID/stat, before and
 * after); the floor is one pass of the store's case iterator over the run in its own process
 * (what any page reading every case pays). The servers are started afresh for each
 * repetition, so "first" is always cold; the floor, the store and its copy alternate
 * A B C A B C; medians, the servers' peak RSS (VmHWM), the load average.
 *
 *   npm run build && npx tsx bench/view.bench.ts [--cases 100000] [--runs 3]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { writeScaleDataset } from './make-scale-dataset.js';
import { HAS_TIME, measure } from './offline-data.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';
import { openStore } from '../src/store/index.js';

const { values } = parseArgs({
  options: { cases: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' } },
});
const CASES = Number(values.cases);
const RUNS = Math.max(1, Number(values.runs));
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-view-bench-'));
const store = join(tmp, 'runs.sqlite');
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process so far. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

async function startView(path: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'view', '--store', path, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', () => reject(new Error('decidekit view ended before printing its URL')));
  });
  return { child, url };
}

interface Answer {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly bytes: number;
  readonly load: string;
}

async function ask(pid: number, url: string): Promise<Answer> {
  const load = oneMinuteLoad();
  const cpu = cpuOf(pid);
  const start = process.hrtime.bigint();
  const res = await fetch(url);
  const body = await res.text();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
  return { seconds, cpuSeconds: cpuOf(pid) - cpu, bytes: Buffer.byteLength(body), load };
}

function iterateFloor(runId: string): string[] {
  const script = `import { openStore } from ${JSON.stringify(join(ROOT, 'dist', 'store', 'index.js'))};
const store = openStore(${JSON.stringify(store)}, { mustExist: true, readOnly: true });
let decisions = 0;
for (const c of store.cases.iterate(${JSON.stringify(runId)})) decisions += c.decisions.length;
store.close();
process.stdout.write(String(decisions));`;
  return ['--input-type=module', '-e', script];
}

try {
  const dataset = join(tmp, `scale-${CASES}.jsonl`);
  writeScaleDataset(dataset, CASES, 1);
  const made = spawnSync(process.execPath, [CLI, 'bench', '--dataset', dataset, '--parallel', '32', '--store', store], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (made.status !== 0) throw new Error(`bench failed: ${String(made.stderr).slice(-500)}`);
  const s = openStore(store, { mustExist: true, readOnly: true });
  const head = s.runs.list()[0]!;
  const summary = s.runs.info(head.id)!.summary;
  s.close();
  const question = Object.keys(summary.byQuestion)[0]!;
  const wrong = summary.byQuestion[question]!.total - summary.byQuestion[question]!.correct;
  const count = (n: number) => n.toLocaleString('en-US');
  const lastPage = Math.ceil(summary.total / 100);
  const lastWrongPage = Math.max(1, Math.ceil(wrong / 100));
  const filtered = `runs/${head.id}?question=${encodeURIComponent(question)}&wrong=1`;
  const paths: Record<string, string> = {
    'run page, first request (its numbers and listings kept with the run)': `runs/${head.id}`,
    'run page again': `runs/${head.id}`,
    [`trace page ${count(lastPage)} of ${count(lastPage)} (sought by position)`]: `runs/${head.id}?page=${lastPage}`,
    "trace filtered: one question's wrong decisions, page 1": filtered,
    [`trace filtered, page ${count(lastWrongPage)} of ${count(lastWrongPage)} (reads the cases up to it)`]: `${filtered}&page=${lastWrongPage}`,
    'the list (`/`)': '',
  };
  // The same run as a store written before the listings were kept holds it.
  const older = join(tmp, 'older.sqlite');
  const own = new Database(store);
  own.pragma('wal_checkpoint(TRUNCATE)');
  own.close();
  copyFileSync(store, older);
  const db = new Database(older);
  db.prepare('DELETE FROM run_listings').run();
  db.close();
  const olderPaths: Record<string, string> = {
    'stored without its listings: run page, first request (reads every case once)': `runs/${head.id}`,
    [`stored without its listings: trace page ${count(lastPage)} after it`]: `runs/${head.id}?page=${lastPage}`,
  };
  const names = [...Object.keys(paths), ...Object.keys(olderPaths)];
  const answers = new Map<string, Answer[]>(names.map((n) => [n, []]));
  const floors: { seconds: number; cpuSeconds: number }[] = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    floors.push(measure(process.execPath, iterateFloor(head.id)));
    for (const [path, asked] of [
      [store, paths],
      [older, olderPaths],
    ] as const) {
      const { child, url } = await startView(path);
      try {
        for (const name of Object.keys(asked)) answers.get(name)!.push(await ask(child.pid!, `${url}${asked[name]!}`));
        rss = Math.max(rss, peakRssMb(child.pid!));
      } finally {
        child.kill('SIGINT');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  }
  const lines = [
    `Command: \`npx tsx bench/view.bench.ts --cases ${CASES} --runs ${RUNS}\` (after \`npm run build\`); one ${CASES.toLocaleString('en-US')}-case run (${summary.total.toLocaleString('en-US')} decisions) stored by \`bench --parallel 32\` (store ${(statSync(store).size / 1e6).toFixed(0)} MB); \`decidekit view\` started afresh for each repetition`,
    machineLine(HAS_TIME),
    '',
    '| request | median wall (s) | median server CPU (s) | page size (KB) | runs: wall s (CPU s) @ 1-min load |',
    '|---|---:|---:|---:|---|',
  ];
  for (const name of names) {
    const all = answers.get(name)!;
    lines.push(
      `| ${name} | ${median(all.map((a) => a.seconds)).toFixed(3)} | ${median(all.map((a) => a.cpuSeconds)).toFixed(2)} | ${(all[0]!.bytes / 1024).toFixed(0)} | ${all.map((a) => `${a.seconds.toFixed(3)} (${a.cpuSeconds.toFixed(2)}) @ ${a.load}`).join(', ')} |`,
    );
  }
  lines.push(
    `| floor: one pass of the store's case iterator over the run (own process) | ${median(floors.map((f) => f.seconds)).toFixed(3)} | ${median(floors.map((f) => f.cpuSeconds)).toFixed(2)} | | ${floors.map((f) => `${f.seconds.toFixed(3)} (${f.cpuSeconds.toFixed(2)})`).join(', ')} |`,
    '',
    `Servers' peak RSS ${rss.toFixed(0)} MB. Load average after: ${oneMinuteLoad()}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
