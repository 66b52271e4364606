/**
 * `decidekit view` on a big run: how fast the run page (`/runs/ID`) answers for an N-case
 * run (default 100,000; 500,000 decisions), served by the built CLI in its own process.
 * The run is made first by `bench --parallel 32` on a scale dataset (outside the timing).
 * Requests: the run page the first time (its report numbers read from every case, then kept),
 * the run page again, a late page of its trace, the trace filtered to one question's wrong
 * decisions, and the list. Each is timed by wall clock here and by the server's CPU
 * (user + sys from /proc/PID/stat, before and after); the floor is one pass of the store's
 * case iterator over the run in its own process (what any page reading every case pays).
 * The server is started afresh for each repetition, so "first" is always cold; requests
 * and the floor alternate A B A B; medians, the server's peak RSS (VmHWM), the load average.
 *
 *   npm run build && npx tsx bench/view.bench.ts [--cases 100000] [--runs 3]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
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

async function startView(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'view', '--store', store, '--port', '0'], {
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
  const lastPage = Math.ceil(summary.total / 100);
  const paths: Record<string, string> = {
    'run page, first request (reads every case once)': `runs/${head.id}`,
    'run page again (its numbers kept)': `runs/${head.id}`,
    [`trace page ${lastPage.toLocaleString('en-US')} of ${lastPage.toLocaleString('en-US')} (reads the cases up to it)`]: `runs/${head.id}?page=${lastPage}`,
    "trace filtered: one question's wrong decisions, page 1": `runs/${head.id}?question=${encodeURIComponent(question)}&wrong=1`,
    'the list (`/`)': '',
  };
  const names = Object.keys(paths);
  const answers = new Map<string, Answer[]>(names.map((n) => [n, []]));
  const floors: { seconds: number; cpuSeconds: number }[] = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    floors.push(measure(process.execPath, iterateFloor(head.id)));
    const { child, url } = await startView();
    try {
      for (const name of names) answers.get(name)!.push(await ask(child.pid!, `${url}${paths[name]!}`));
      rss = Math.max(rss, peakRssMb(child.pid!));
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
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
    `Server peak RSS ${rss.toFixed(0)} MB. Load average after: ${oneMinuteLoad()}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
