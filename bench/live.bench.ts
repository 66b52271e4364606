/**
 * The live monitor's own cost. Targets: at `--interval 0.1`
 * against a zero-latency server the monitor uses under 5% of one core, and a redraw at
 * 120x40 takes under 2 ms.
 *
 *  1. CPU: `node dist/cli/main.js live --interval 0.1` against `decidekit serve --model
 *     uniform --metrics` (a child process: its own event loop), drawn full screen in a tmux
 *     pane (a real terminal, 120x40), then piped (plain lines). The monitor's CPU time is
 *     read from /proc/<pid>/stat over a measured span after a warm-up.
 *  2. Redraw: in this process, a state of 400 probes; one probe is reduced in, then the
 *     frame is rendered (`renderLive`) and diffed against the previous one
 *     (`renderFrameUpdate`): the work of one redraw. Median and p95 over many redraws.
 *
 * Run: npm run build && npx tsx bench/live.bench.ts   (LIVE_BENCH_SECONDS=N, default 10)
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scoreCase } from '../src/core/typed-decisions/case-result.js';
import { pollOrder } from '../src/core/live/poll-order.js';
import { percentile } from '../src/core/percentile.js';
import { loadBenchDataset } from '../src/datasets/typed-decisions/index.js';
import { createLiveState, reduce, type LiveEvent, type LiveState } from '../src/monitor/live-state.js';
import { renderLive } from '../src/monitor/render-live.js';
import { renderFrameUpdate } from '../src/cli/terminal-screen.js';
import { startChildServer } from './child-server.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SECONDS = Math.max(2, Number(process.env['LIVE_BENCH_SECONDS'] ?? 10));
const WARMUP_MS = 2000;
const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** user + system CPU seconds of a process, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function measure(pid: number): Promise<{ cpuPercent: number; seconds: number }> {
  await sleep(WARMUP_MS);
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  const c1 = cpuSeconds(pid);
  const seconds = (performance.now() - t0) / 1000;
  return { cpuPercent: ((c1 - c0) / seconds) * 100, seconds };
}

const server = await startChildServer(['--model', 'uniform', '--metrics']);
const results: string[] = [];
try {
  // 1a. Full screen in a real terminal.
  const socket = `decidekit-live-bench-${process.pid}`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  if (tmux('-V').status !== 0) throw new Error('tmux is not installed (apt-get install -y tmux)');
  tmux(
    'new-session',
    '-d',
    '-x',
    '120',
    '-y',
    '40',
    `${process.execPath} ${CLI} live --base-url ${server.url} --interval 0.1`,
  );
  const pid = Number(tmux('display-message', '-p', '#{pane_pid}').stdout.trim());
  const screen = await measure(pid);
  const socketPath = tmux('display-message', '-p', '#{socket_path}').stdout.trim();
  const captured = tmux('capture-pane', '-p').stdout;
  const probes = /probe ([\d,]+)/.exec(captured)?.[1] ?? 'n/a';
  tmux('kill-server');
  spawnSync('rm', ['-f', socketPath]);
  results.push(
    `| full screen, tmux 120x40 | ${screen.cpuPercent.toFixed(2)}% | ${screen.seconds.toFixed(1)} s | ${probes} probes by the end |`,
  );

  // 1b. Piped: one plain line per probe.
  const child = spawn(process.execPath, [CLI, 'live', '--base-url', server.url, '--interval', '0.1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let lines = 0;
  child.stdout.on('data', (d: Buffer) => (lines += d.toString().split('\n').length - 1));
  const piped = await measure(child.pid!);
  child.kill('SIGINT');
  await new Promise((r) => child.on('exit', r));
  results.push(
    `| piped, plain lines | ${piped.cpuPercent.toFixed(2)}% | ${piped.seconds.toFixed(1)} s | ${lines} lines |`,
  );
} finally {
  await server.stop();
}

// 2. Redraw time at 120x40.
const dataset = await loadBenchDataset({ kind: 'sample' });
const order = pollOrder(dataset.cases.length).map((i) => dataset.cases[i]!);
const uniform = (n: number) => Array.from({ length: n }, () => 1 / n);
const pollEvent = (i: number): LiveEvent => {
  const c = order[i % order.length]!;
  const predicted = c.questions.map(([, q], k) => {
    const n = q.type === 'noul' ? 2 : q.type === 'choice' ? q.options.length : q.levels.length;
    // Alternate confident and uniform answers so the numbers keep moving.
    return i % 2 === 0 ? c.gold[k]!.probabilities : uniform(n);
  });
  return {
    type: 'poll',
    atMs: i * 100,
    result: scoreCase(c, { status: 'answered', latencyMs: 1 + (i % 7), inputTokens: 500, predicted }),
    statePreview: JSON.stringify(c.state).slice(0, 240),
  };
};
const size = { columns: 120, rows: 40 };
let state: LiveState = createLiveState(
  {
    target: 'http://127.0.0.1:8084',
    embedded: true,
    model: 'uniform',
    datasetCredit: dataset.info.attribution,
    cases: order.length,
    intervalMs: 100,
  },
  { atMs: 0, size },
);
for (let i = 0; i < 400; i++) state = reduce(state, pollEvent(i));
let previous = renderLive(state, size, { colour: true });
const redraws: number[] = [];
const reduces: number[] = [];
let bytes = 0;
for (let i = 400; i < 2400; i++) {
  const r0 = performance.now();
  state = reduce(state, pollEvent(i));
  const r1 = performance.now();
  const next = renderLive(state, size, { colour: true });
  bytes += renderFrameUpdate(previous, next, size.columns).length;
  const r2 = performance.now();
  previous = next;
  reduces.push(r1 - r0);
  redraws.push(r2 - r1);
}

process.stdout
  .write(`Command: \`npx tsx bench/live.bench.ts\` (${SECONDS} s measured after ${WARMUP_MS / 1000} s warm-up)
Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load average at end ${loadavg()
  .map((x) => x.toFixed(2))
  .join(' ')}

Monitor CPU at --interval 0.1 against \`decidekit serve --model uniform --metrics\` (child process), target < 5% of one core:

| mode | monitor CPU (one core = 100%) | measured | work |
|---|---:|---:|---|
${results.join('\n')}

Redraw at 120x40 (reduce one probe, then renderLive + frame diff; colour on; 2,000 redraws after 400 probes), target < 2 ms:

| step | median | p95 | max |
|---|---:|---:|---:|
| redraw (render + diff) | ${ms(percentile(redraws, 0.5))} | ${ms(percentile(redraws, 0.95))} | ${ms(Math.max(...redraws))} |
| reduce one probe | ${ms(percentile(reduces, 0.5))} | ${ms(percentile(reduces, 0.95))} | ${ms(Math.max(...reduces))} |

Mean bytes written per redraw (changed lines only): ${Math.round(bytes / redraws.length)}
`);

function ms(v: number | null): string {
  return v === null ? 'n/a' : `${v.toFixed(3)} ms`;
}
