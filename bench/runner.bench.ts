/**
 * Benchmark-runner speed: a 400-case run of the synthetic
 * Typed Decisions workload against the reference server's zero-latency `uniform` model at
 * parallel 1, 8 and 32. Target: at parallel 32 a 400-case run finishes in under 1 s.
 *
 * The 400 cases are the bundled 100-case sample repeated with new ids (`<id>~r<k>`),
 * written as one decoded JSONL file in a temp dir and loaded back the way `bench
 * --dataset PATH` loads it, so every measurement below sends the same 400 requests.
 *
 * Measured in this one process, same server, rotating order, REPS repetitions, medians:
 *  1. baseline: an undici Pool posting the 400 pre-rendered bodies and reading each
 *     response body (no parsing, no scoring): the floor of loopback HTTP;
 *  2. runner: runBenchmark + createSystemOneClient (renders each body, validates every
 *     answer, scores every decision), no store;
 *  3. runner + store: the same, checkpointing every case into the SQLite run store (temp
 *     file; synchronous=FULL, the default, and NORMAL to split fsync from SQLite work),
 *     plus a PROTOTYPE of group commit (one transaction per event-loop turn) to size that
 *     proposed fix;
 *  4. the CLI: `node dist/cli/main.js bench --base-url URL --model uniform --parallel 32
 *     --json --dataset <400 cases>` with `--no-store`, `--no-store --limit 1` and
 *     `--store <tmp>`, wall time from spawn to exit (process start included) and the
 *     child's own CPU time; `node -e 0`, `--version` and `bench --help` as start-up floors.
 * Also: the first (JIT-cold) runner run, the warm per-request steps (render, parse +
 * validate, score), dataset load / summarize / JSON render, and the disk's fsync latency
 * (it decides the store's cost on this shared machine).
 * The headline server is `decidekit serve` in a child process (its own event loop, as in
 * real use). Items 1-2 are repeated against a server in this process (sharing the CPU and
 * the event loop with the harness) for comparison. Takes about 65-105 s.
 *
 * Run: npm run build && npx tsx bench/runner.bench.ts   (BENCH_REPS=N to change the 5 reps)
 */
import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../src/core/typed-decisions/case-result.js';
import type { BenchRun, RunConfig } from '../src/core/bench/run.js';
import { createRunConfig } from '../src/core/bench/test-support/run-fixtures.js';
import { endpointFor, endpointIdentity } from '../src/protocol/wire/endpoint.js';
import type { BenchSummary } from '../src/core/bench/summary.js';
import { createSystemOneClient, failureOf, isRunStopping } from '../src/protocol/client/client.js';
import { renderDecideRequest } from '../src/protocol/wire/decide-request.js';
import { parseDecideResponse } from '../src/protocol/wire/decide-response.js';
import { startReferenceServer } from '../src/protocol/server/server.js';
import { loadBenchDataset, sampleDir } from '../src/datasets/typed-decisions/index.js';
import { renderBenchJson } from '../src/reports/bench/bench-json.js';
import { runBenchmark } from '../src/runner/run-benchmark.js';
import { fingerprintOf, openStore, summarizeRun, type Store } from '../src/store/index.js';
import { startChildServer } from './child-server.js';
import { median } from './measurements.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const REPS = Math.max(1, Number(process.env['BENCH_REPS'] ?? 5));
const CASES = 400;
const PARALLEL = [1, 8, 32] as const;
const MODEL = 'uniform';

const loadAtStart = loadavg();
const benchStarted = performance.now();

// ---------------------------------------------------------------- workload

const tmp = mkdtempSync(join(tmpdir(), 'decidekit-runner-bench-'));
const datasetPath = join(tmp, `typed-decisions-${CASES}.jsonl`);
let sampleRows = 0;
{
  const rows = readFileSync(join(sampleDir(), 'test.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  if (rows.length === 0) throw new Error('the bundled sample is empty');
  sampleRows = rows.length;
  const out: string[] = [];
  for (let i = 0; out.length < CASES; i++) {
    const row = rows[i % rows.length]!;
    out.push(JSON.stringify({ ...row, id: `${String(row['id'])}~r${Math.floor(i / rows.length)}` }));
  }
  writeFileSync(datasetPath, out.join('\n') + '\n');
}
const dataset = await loadBenchDataset({ kind: 'path', path: datasetPath });
const cases: readonly TypedDecisionsCase[] = dataset.cases;
if (cases.length !== CASES) throw new Error(`expected ${CASES} cases, loaded ${cases.length}`);
const bodies = cases.map((c) =>
  Buffer.from(renderDecideRequest({ model: MODEL, state: c.state, questions: c.questions })),
);
const meanBodyBytes = bodies.reduce((n, b) => n + b.length, 0) / bodies.length;
const decisions = cases.reduce((n, c) => n + c.questions.length, 0);

// ---------------------------------------------------------------- servers

// ---------------------------------------------------------------- measured runs

interface Sample {
  readonly wallMs: number;
  /** CPU time of this process (user + system) during the run. */
  readonly cpuMs: number;
}

async function timed(body: () => Promise<void>): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await body();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Runs `n` jobs, `parallel` at a time, the way runBenchmark schedules them. */
async function pooled(n: number, parallel: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, n) }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

type Kind = 'baseline' | 'runner' | 'store-full' | 'store-normal' | 'store-per-case';

/**
 * Median latency of a 52 KiB write + fsync in the temp dir: about what one saveCase commit
 * puts in the write-ahead log (13 pages of 4 KiB for a 5-decision case, per strace) and waits for.
 */
function probeFsyncMs(times = 40): number {
  const fd = openSync(join(tmp, 'fsync-probe.bin'), 'w');
  const block = Buffer.alloc(13 * 4096, 1);
  const xs: number[] = [];
  try {
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      writeSync(fd, block, 0, block.length, 0);
      fsyncSync(fd);
      xs.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
  }
  return median(xs);
}
const fsyncProbes: { where: string; ms: number }[] = [];

function configFor(url: string, parallel: number): RunConfig {
  return createRunConfig({
    toolVersion: 'bench',
    dataset: dataset.info,
    caseIds: cases.map((c) => c.id),
    questionSet: dataset.questionSet,
    model: MODEL,
    endpoint: endpointIdentity(endpointFor(url)),
    parallel,
    timeoutMs: 60_000,
    retries: 2,
  });
}

async function baselineRun(url: string, parallel: number): Promise<Sample> {
  const pool = new Pool(url, { connections: parallel, pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  try {
    return await timed(() =>
      pooled(CASES, parallel, async (i) => {
        const res = await pool.request({ path: '/v1/systemone', method: 'POST', headers, body: bodies[i]! });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
      }),
    );
  } finally {
    await pool.destroy();
  }
}

/** One library run; with a store, every case is saved as it finishes and the run is finished with `summary`. */
async function runnerRun(
  url: string,
  parallel: number,
  store: Store | null,
  summary: BenchSummary | null,
  perCase = false,
): Promise<{ sample: Sample; results: readonly CaseResult[]; commits: number | null }> {
  const client = createSystemOneClient({ baseUrl: url, model: MODEL, connections: parallel });
  let results: readonly CaseResult[] = [];
  let commits: number | null = null;
  try {
    const sample = await timed(async () => {
      const config = configFor(url, parallel);
      const runId = store ? store.runs.create({ config, label: null, createdAt: new Date().toISOString() }).id : null;
      let batches = 0;
      // The default checkpoints each batch of cases that finished together in one transaction
      // (group commit); `perCase` commits every case on its own, as the store did before.
      const checkpoint =
        store && runId !== null
          ? (rs: readonly CaseResult[]) => {
              if (perCase) for (const r of rs) store.cases.save(runId, [r]);
              else store.cases.save(runId, rs);
              batches += perCase ? rs.length : 1;
            }
          : undefined;
      const outcome = await runBenchmark({
        cases,
        client,
        parallel,
        failureOf,
        isRunStopping,
        now: () => performance.now(),
        ...(checkpoint ? { checkpoint } : {}),
      });
      if (store && runId !== null)
        store.runs.finish(runId, { status: summary!.status, durationMs: outcome.durationMs, summary: summary! });
      results = outcome.results;
      commits = store ? batches : null;
    });
    const answered = results.filter((r) => r.request.status === 'answered').length;
    if (answered !== CASES) throw new Error(`runner answered ${answered} of ${CASES} cases`);
    return { sample, results, commits };
  } finally {
    await client.close();
  }
}

type Table = Map<string, Sample[]>; // key: `${kind}@${parallel}`

/** Commits per 400-case run of the default (group-commit) store, by parallel. */
const groupCommits = new Map<number, number[]>();

async function measureLibrary(
  url: string,
  kinds: readonly Kind[],
  stores: Partial<Record<Kind, Store>>,
  summary: BenchSummary,
  probe: boolean,
): Promise<Table> {
  const table: Table = new Map();
  const once = async (kind: Kind, parallel: number): Promise<Sample> => {
    if (kind === 'baseline') return baselineRun(url, parallel);
    const store = kind === 'runner' ? null : stores[kind]!;
    const r = await runnerRun(url, parallel, store, summary, kind === 'store-per-case');
    if (kind === 'store-full' && r.commits !== null)
      groupCommits.set(parallel, [...(groupCommits.get(parallel) ?? []), r.commits]);
    return r.sample;
  };
  for (const parallel of PARALLEL) {
    if (probe) fsyncProbes.push({ where: `before parallel ${parallel}`, ms: probeFsyncMs() });
    for (const kind of kinds) await once(kind, parallel); // warm-up: JIT, connections, page cache
    for (let rep = 0; rep < REPS; rep++) {
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[(i + rep) % kinds.length]!;
        const s = await once(kind, parallel);
        const key = `${kind}@${parallel}`;
        table.set(key, [...(table.get(key) ?? []), s]);
      }
    }
  }
  return table;
}

// ---------------------------------------------------------------- CLI runs

interface CliSample {
  readonly wallMs: number;
  /** user + system CPU of the child process (its own report at exit), or null. */
  readonly cpuMs: number | null;
  readonly code: number | null;
  readonly stdout: string;
  /** stderr lines that are not --json progress events (warnings). */
  readonly otherStderr: readonly string[];
}

/** Preloaded into every timed child: reports the child's own CPU time on stderr at exit. */
const cpuProbe = join(tmp, 'cpu-probe.cjs');
writeFileSync(
  cpuProbe,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, '\\n#cpu-us ' + (u.user + u.system) + '\\n'); });\n",
);

/** Runs `node <args>` to completion. */
function runCliOnce(args: readonly string[]): Promise<CliSample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--require', cpuProbe, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c)); // --json progress: one JSON line per case
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const lines = Buffer.concat(err).toString('utf8').split('\n');
      const cpuLine = lines.find((l) => l.startsWith('#cpu-us '));
      const otherStderr = lines.filter((l) => l.trim() !== '' && !l.startsWith('{') && !l.startsWith('#cpu-us '));
      resolve({
        wallMs,
        cpuMs: cpuLine === undefined ? null : Number(cpuLine.slice(8)) / 1000,
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        otherStderr,
      });
    });
  });
}

// ---------------------------------------------------------------- run everything

interface Results {
  headline: Table;
  shared: Table;
  pieces: { load: number[]; summarize: number[]; renderJson: number[] };
  /** µs per request, warm, for the client's and runner's own steps. */
  perRequest: { render: number[]; parse: number[]; score: number[] };
  /** The first runner run in this process (parallel 32, no store): code not yet optimized by the JIT, as in a CLI run. */
  coldRun: Sample;
  cli: Map<CliKind, CliSample[]>;
  cliStderr: Set<string>;
}

const cliStore = join(tmp, 'cli-runs.sqlite');
const cliKinds = {
  'node -e 0': ['-e', '0'],
  'decidekit --version': [CLI, '--version'],
  'decidekit bench --help': [CLI, 'bench', '--help'],
  'decidekit bench … --no-store --limit 1': [] as string[],
  'decidekit bench … --no-store': [] as string[],
  'decidekit bench … --store FILE': [] as string[],
} satisfies Record<string, string[]>;
type CliKind = keyof typeof cliKinds;
const cliNames = Object.keys(cliKinds) as CliKind[];
const isBenchRun = (k: CliKind) => k.startsWith('decidekit bench …');

async function runAll(): Promise<Results> {
  const child = await startChildServer(['--model', MODEL]);
  const inProcess = await startReferenceServer({ host: '127.0.0.1', port: 0, model: MODEL });
  const stores: Store[] = [];
  const store = (file: string, synchronous: 'full' | 'normal') => {
    const s = openStore(join(tmp, file), { synchronous });
    stores.push(s);
    return s;
  };
  try {
    const storeFull = store('runs-full.sqlite', 'full');
    const storeNormal = store('runs-normal.sqlite', 'normal');
    const storePerCase = store('runs-per-case.sqlite', 'full');

    // A summary to finish stored runs with (uniform answers are deterministic, so every run has it).
    const warm = await runnerRun(child.url, 32, null, null);
    const coldRun = warm.sample;
    const summary = summarizeRun(configFor(child.url, 32), warm.results);
    const kinds: Kind[] = ['baseline', 'runner', 'store-full', 'store-per-case', 'store-normal'];

    const headline = await measureLibrary(
      child.url,
      kinds,
      { 'store-full': storeFull, 'store-normal': storeNormal, 'store-per-case': storePerCase },
      summary,
      true,
    );
    const shared = await measureLibrary(inProcess.url, ['baseline', 'runner'], {}, summary, false);

    // Pieces of the CLI's work outside the requests, in this process (warm).
    const pieces: Results['pieces'] = { load: [], summarize: [], renderJson: [] };
    for (let rep = 0; rep < REPS; rep++) {
      pieces.load.push(
        (await timed(async () => void (await loadBenchDataset({ kind: 'path', path: datasetPath })))).wallMs,
      );
      const config = configFor(child.url, 32);
      let s: BenchSummary | null = null;
      pieces.summarize.push((await timed(async () => void (s = summarizeRun(config, warm.results)))).wallMs);
      const run: BenchRun = {
        id: 'bench',
        createdAt: new Date().toISOString(),
        durationMs: 1,
        label: null,
        fingerprint: fingerprintOf(config),
        config,
        summary: s!,
        cases: warm.results,
      };
      pieces.renderJson.push((await timed(async () => void renderBenchJson(run))).wallMs);
    }

    // The client's and runner's own steps per request (warm, no HTTP): render the body,
    // parse + validate the answer, score the case.
    const responses = await (async () => {
      const pool = new Pool(child.url, { connections: 1 });
      try {
        const out: string[] = [];
        for (const body of bodies) {
          const res = await pool.request({
            path: '/v1/systemone',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          out.push(await res.body.text());
        }
        return out;
      } finally {
        await pool.destroy();
      }
    })();
    const perRequest: Results['perRequest'] = { render: [], parse: [], score: [] };
    const perCase = (f: (c: TypedDecisionsCase, i: number) => void) => {
      const t0 = performance.now();
      cases.forEach(f);
      return ((performance.now() - t0) / CASES) * 1000;
    };
    const predicted = cases.map((c, i) => {
      const r = parseDecideResponse(JSON.parse(responses[i]!), c.questions);
      if (!r.ok) throw new Error(`unexpected answer for ${c.id}: ${r.reason}`);
      return r.value.predicted;
    });
    for (let rep = 0; rep < REPS + 1; rep++) {
      const render = perCase(
        (c) => void Buffer.from(renderDecideRequest({ model: MODEL, state: c.state, questions: c.questions })),
      );
      const parse = perCase((c, i) => void parseDecideResponse(JSON.parse(responses[i]!), c.questions));
      const score = perCase(
        (c, i) => void scoreCase(c, { status: 'answered', latencyMs: 1, inputTokens: null, predicted: predicted[i]! }),
      );
      if (rep === 0) continue; // warm-up
      perRequest.render.push(render);
      perRequest.parse.push(parse);
      perRequest.score.push(score);
    }

    // The CLI against the child server.
    const benchArgs = [
      CLI,
      'bench',
      '--base-url',
      child.url,
      '--model',
      MODEL,
      '--parallel',
      '32',
      '--json',
      '--dataset',
      datasetPath,
    ];
    cliKinds['decidekit bench … --no-store --limit 1'] = [...benchArgs, '--no-store', '--limit', '1'];
    cliKinds['decidekit bench … --no-store'] = [...benchArgs, '--no-store'];
    cliKinds['decidekit bench … --store FILE'] = [...benchArgs, '--store', cliStore];
    const cli = new Map<CliKind, CliSample[]>();
    const cliStderr = new Set<string>();
    fsyncProbes.push({ where: 'before the CLI runs', ms: probeFsyncMs() });
    for (const name of cliNames) await runCliOnce(cliKinds[name]); // warm-up (page cache); creates the store file
    for (let rep = 0; rep < REPS; rep++) {
      for (let i = 0; i < cliNames.length; i++) {
        const name = cliNames[(i + rep) % cliNames.length]!;
        const r = await runCliOnce(cliKinds[name]);
        if (r.code !== 0) throw new Error(`node ${cliKinds[name].join(' ')} exited with ${r.code}`);
        if (isBenchRun(name)) {
          const doc = JSON.parse(r.stdout) as { decisions?: unknown[]; summary?: { status?: unknown } };
          const n = Array.isArray(doc.decisions) ? doc.decisions.length : null;
          const expected = name.endsWith('--limit 1') ? cases[0]!.questions.length : decisions;
          if (n !== expected || doc.summary?.status !== 'complete')
            throw new Error(
              `decidekit bench reported ${n} decisions (expected ${expected}), status ${String(doc.summary?.status)}`,
            );
          for (const line of r.otherStderr) cliStderr.add(line.replace(/\(node:\d+\)/, '(node)'));
        }
        cli.set(name, [...(cli.get(name) ?? []), r]);
      }
    }
    fsyncProbes.push({ where: 'at the end', ms: probeFsyncMs() });
    return { headline, shared, pieces, perRequest, coldRun, cli, cliStderr };
  } finally {
    for (const s of stores) s.close();
    await inProcess.close();
    await child.stop();
  }
}

let results: Results;
try {
  results = await runAll();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const { headline, shared, pieces, perRequest, coldRun, cli, cliStderr } = results;

// ---------------------------------------------------------------- report

const med = (t: Table, kind: Kind, p: number, f: (s: Sample) => number = (s) => s.wallMs) =>
  median(t.get(`${kind}@${p}`)!.map(f));
const has = (t: Table, kind: Kind) => t.has(`${kind}@${PARALLEL[0]}`);
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const us = (x: number) => (Math.abs(x) >= 10 ? x.toFixed(0) : x.toFixed(1));
const rps = (wallMs: number) => ((CASES / wallMs) * 1000).toFixed(0);
const LABELS: Record<Kind, string> = {
  baseline: 'undici Pool baseline',
  runner: 'runner (no store)',
  'store-full': 'runner + store (FULL, group commit: the default)',
  'store-normal': 'runner + store (NORMAL, group commit)',
  'store-per-case': 'runner + store (FULL, one commit per case)',
};

const libRows: string[] = [];
for (const p of PARALLEL) {
  const b = med(headline, 'baseline', p);
  for (const kind of (Object.keys(LABELS) as Kind[]).filter((k) => has(headline, k))) {
    const w = med(headline, kind, p);
    const overhead = kind === 'baseline' ? '—' : us(((w - b) / CASES) * 1000);
    const cpu = us((med(headline, kind, p, (s) => s.cpuMs) / CASES) * 1000);
    libRows.push(
      `| ${p} | ${LABELS[kind]} | ${ms(w)} | ${rps(w)} | ${overhead} | ${kind === 'baseline' ? '1.00' : (w / b).toFixed(2)} | ${cpu} |`,
    );
  }
}
const sharedRows = PARALLEL.map((p) => {
  const b = med(shared, 'baseline', p);
  const r = med(shared, 'runner', p);
  return `| ${p} | ${ms(b)} | ${ms(r)} | ${us(((r - b) / CASES) * 1000)} | ${(r / b).toFixed(2)} |`;
});
const cliMed = (k: CliKind) => median(cli.get(k)!.map((r) => r.wallMs));
const cliCpu = (k: CliKind) => {
  const xs = cli.get(k)!.flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
  return xs.length === 0 ? 'n/a' : ms(median(xs));
};
const cliRows = cliNames.map((k) => `| \`${k}\` | ${ms(cliMed(k))} | ${cliCpu(k)} |`);

// Per-rep paired differences at parallel 1: the harness overhead with its spread.
const paired = (kind: Kind) =>
  headline.get(`${kind}@1`)!.map((s, i) => ((s.wallMs - headline.get('baseline@1')![i]!.wallMs) / CASES) * 1000);
const verdict = (x: number) => (x < 1000 ? `**met** (${ms(x)} ms)` : `**not met** (${ms(x)} ms)`);
const runnerCpuUs = (med(headline, 'runner', 32, (s) => s.cpuMs) / CASES) * 1000;
const cpuModel =
  /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
const la = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
const commitsLine = `Group commit (the default): ${PARALLEL.map((p) => `${median(groupCommits.get(p)!).toFixed(0)} commits`).join(' / ')} per ${CASES}-case run at parallel ${PARALLEL.join(' / ')} (one per case without it).`;

process.stdout.write(
  [
    `### Benchmark runner: ${CASES}-case run, reference server \`${MODEL}\` (zero latency)`,
    '',
    `Command: \`npm run build && npx tsx bench/runner.bench.ts\` (REPS=${REPS}, rotating order, medians, one warm-up run each). ` +
      `Machine: ${cpus().length} CPUs (nproc), ${cpuModel}, Node ${process.version}; load average ${la(loadAtStart)} at start, ${la(loadavg())} at the end. ` +
      `Workload: the ${sampleRows}-case synthetic sample repeated to ${CASES} cases (${decisions} decisions, mean request ${meanBodyBytes.toFixed(0)} bytes). ` +
      `Write 52 KiB + fsync in the temp dir (median of 40; the disk is shared with other jobs): ${fsyncProbes.map((f) => `${f.ms.toFixed(2)} ms ${f.where}`).join(', ')}. ` +
      `Total bench time ${((performance.now() - benchStarted) / 1000).toFixed(1)} s.`,
    '',
    `**Server in a child process** (\`decidekit serve --port 0 --model ${MODEL}\`; harness and server have their own event loops, as in real use):`,
    '',
    '| parallel | configuration | wall ms | requests/s | harness overhead µs/request (vs baseline) | ratio to baseline | harness-process CPU µs/request |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...libRows,
    '',
    `Harness overhead at parallel 1, paired per repetition (runner − baseline) / ${CASES}: ${paired('runner').map(us).join(', ')} µs/request (median ${us(median(paired('runner')))}); ` +
      `with the store (FULL): ${paired('store-full').map(us).join(', ')} µs (median ${us(median(paired('store-full')))}). ` +
      `The first run in this process (parallel 32, no store, JIT cold as in a CLI run) took ${ms(coldRun.wallMs)} ms wall, ${us((coldRun.cpuMs / CASES) * 1000)} µs CPU per request. In CPU time of this process (steadier): runner − baseline = ${us(((med(headline, 'runner', 1, (s) => s.cpuMs) - med(headline, 'baseline', 1, (s) => s.cpuMs)) / CASES) * 1000)} µs/request at parallel 1, ` +
      `${us(((med(headline, 'runner', 32, (s) => s.cpuMs) - med(headline, 'baseline', 32, (s) => s.cpuMs)) / CASES) * 1000)} µs at parallel 32. ${commitsLine}`,
    '',
    `**Server in the same process** (startReferenceServer; it shares the event loop and CPU with the harness, so these walls include the server's own work):`,
    '',
    '| parallel | undici Pool baseline wall ms | runner wall ms | overhead µs/request | ratio |',
    '|---:|---:|---:|---:|---:|',
    ...sharedRows,
    '',
    `**The whole CLI**: \`node dist/cli/main.js bench --base-url <child server> --model ${MODEL} --parallel 32 --json --dataset <${CASES} cases>\`, wall time from spawn to exit (process start included) and the process's own CPU time (steadier than wall on a busy machine: wall − CPU is waiting, on the disk, the server or other jobs' use of the 2 cores); \`node -e 0\`, \`--version\` and \`bench --help\` are the start-up floors:`,
    '',
    '| command | wall ms | CPU ms of the process (user + system) |',
    '|---|---:|---:|',
    ...cliRows,
    '',
    ...(cliStderr.size > 0
      ? [
          `The CLI bench runs wrote to stderr besides --json progress: ${[...cliStderr].map((l) => `\`${l}\``).join('; ')}`,
          '',
        ]
      : []),
    `Pieces of the CLI's work outside the requests (in this process, warm, medians): load + validate ${CASES} cases ${ms(median(pieces.load))} ms, ` +
      `summarizeRun ${ms(median(pieces.summarize))} ms, renderBenchJson ${ms(median(pieces.renderJson))} ms. ` +
      `Per request (warm, no HTTP): render the body ${us(median(perRequest.render))} µs, JSON.parse + validate the answer ${us(median(perRequest.parse))} µs, score the case ${us(median(perRequest.score))} µs.`,
    '',
    `Target "< 1 s for ${CASES} cases at --parallel 32": library runner ${verdict(med(headline, 'runner', 32))}; runner + store ${verdict(med(headline, 'store-full', 32))}; ` +
      `CLI without store ${verdict(cliMed('decidekit bench … --no-store'))}; CLI with store, process start included ${verdict(cliMed('decidekit bench … --store FILE'))}. ` +
      `Harness CPU per request at parallel 32 (runner, no store): ${us(runnerCpuUs)} µs, a ceiling of about ${((1 / runnerCpuUs) * 1e6).toFixed(0)} requests/s on one core; ` +
      `a 3 ms model serves at most ${((32 / 3) * 1000).toFixed(0)} requests/s at parallel 32 and ${(1000 / 3).toFixed(0)} at parallel 1.`,
    '',
  ].join('\n'),
);
