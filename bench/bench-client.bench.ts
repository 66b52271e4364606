/**
 * `decidekit bench --no-store` against its floor: a plain undici `Pool` client
 * (bench/raw-undici-client.mjs) that streams the same dataset file and posts the same request
 * bodies, on the same 20,000 cases (bench/make-scale-dataset.ts), at `--parallel 32`, against
 * one zero-latency reference server in a child process (bench/child-server.ts).
 *
 * The two run alternately (decidekit, floor, decidekit, floor, …), each a fresh process under
 * `/usr/bin/time` (wall, user + system CPU, peak RSS); both preload bench/send-phase-probe.mjs,
 * which times the send phase (first request to last answer) and its CPU. Medians, and ratios
 * taken within each pair, then their median.
 *
 *   npm run build && npx tsx bench/bench-client.bench.ts [--cases 20000] [--pairs 5] [--parallel 32] [--before CLI]
 *
 * `--before CLI`: another build's `dist/cli/main.js` (an older commit's, say), run in each
 * round too (this build, the other, the floor), so before and after are measured together.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDecodedRow } from '../src/datasets/typed-decisions/decoded-row.js';
import { renderDecideRequest } from '../src/protocol/wire/decide-request.js';
import { startChildServer } from './child-server.js';
import { writeScaleDataset } from './make-scale-dataset.js';
import { machineLine, median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '20000' },
    pairs: { type: 'string', default: '5' },
    parallel: { type: 'string', default: '32' },
    // Another build of the CLI to measure instead of this one (a copy of dist/, say).
    cli: { type: 'string' },
    // An older build measured in the same rounds.
    before: { type: 'string' },
  },
});
const CASES = Number(values.cases);
const PAIRS = Math.max(1, Number(values.pairs));
const PARALLEL = Number(values.parallel);
const MODEL = 'uniform';
const CLI = values.cli ?? join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const PROBE = join(import.meta.dirname, 'send-phase-probe.mjs');
const FLOOR = join(import.meta.dirname, 'raw-undici-client.mjs');

interface Measured {
  readonly wallS: number;
  readonly cpuS: number;
  readonly rssMb: number;
  readonly sendMs: number;
  readonly sendCpuUsPerRequest: number;
}

/** The floor posts what decidekit posts: checked on the bundled sample's rows before anything is timed. */
function refuseDifferentBodies(): void {
  const sample = join(import.meta.dirname, '..', 'data', 'typed-decisions-sample', 'test.jsonl');
  for (const line of readFileSync(sample, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { state: unknown; questions: unknown };
    const floor = `{"model":${JSON.stringify(MODEL)},"state":${JSON.stringify(row.state)},"questions":${JSON.stringify(row.questions)}}`;
    const parsed = parseDecodedRow(row);
    if (!parsed.ok) throw new Error(`the sample row does not parse: ${line.slice(0, 80)}`);
    const { state, questions } = parsed.benchCase;
    if (renderDecideRequest({ model: MODEL, state, questions }) !== floor)
      throw new Error(`the floor's request body differs from decidekit's for ${line.slice(0, 80)}`);
  }
}

function timed(tmp: string, args: readonly string[], requests: number): Measured {
  const timeFile = join(tmp, 'time.txt');
  const errFile = join(tmp, 'stderr.txt');
  const r = spawnSync(
    '/bin/sh',
    ['-c', `/usr/bin/time -f '%e %M %U %S' -o "$0" "$@" > /dev/null 2> "${errFile}"`, timeFile, ...args],
    { stdio: 'inherit' },
  );
  const stderr = readFileSync(errFile, 'utf8');
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${stderr.slice(-600)}`);
  const [wall, rssKb, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  const phaseLine = /^send-phase (.*)$/m.exec(stderr)?.[1];
  if (phaseLine === undefined) throw new Error(`no send-phase line from ${args.join(' ')}`);
  const phase = JSON.parse(phaseLine) as { requests: number; ms: number; cpuUs: number };
  if (phase.requests !== requests) throw new Error(`${phase.requests} requests answered, expected ${requests}`);
  return {
    wallS: wall!,
    cpuS: user! + sys!,
    rssMb: rssKb! / 1024,
    sendMs: phase.ms,
    sendCpuUsPerRequest: phase.cpuUs / requests,
  };
}

refuseDifferentBodies();
const tmp = mkdtempSync(join(tmpdir(), 'decidekit-bench-client-'));
const dataset = join(tmp, `scale-${CASES}.jsonl`);
writeScaleDataset(dataset, CASES);
readFileSync(dataset); // into the page cache before the first timed run
const server = await startChildServer(['--model', MODEL, '--slots', '256']);
const loadAtStart = oneMinuteLoad();
const decidekitArgs = (cli: string) => [
  process.execPath,
  '--import',
  PROBE,
  cli,
  'bench',
  '--no-store',
  '--dataset',
  dataset,
  '--parallel',
  String(PARALLEL),
  '--base-url',
  server.url,
  '--model',
  MODEL,
];
const floorArgs = [process.execPath, '--import', PROBE, FLOOR, server.url, dataset, String(PARALLEL), MODEL];
type Side = 'decidekit' | 'before' | 'floor';
const runs: Record<Side, Measured>[] = [];
try {
  for (let pair = 0; pair < PAIRS; pair++) {
    const decidekit = timed(tmp, decidekitArgs(CLI), CASES);
    const before = values.before === undefined ? null : timed(tmp, decidekitArgs(values.before), CASES);
    const floor = timed(tmp, floorArgs, CASES);
    runs.push({ decidekit, floor, before: before ?? decidekit });
    process.stderr.write(
      `round ${pair + 1}: decidekit ${decidekit.wallS} s (send ${(decidekit.sendMs / 1000).toFixed(2)} s)${before === null ? '' : `, before ${before.wallS} s (send ${(before.sendMs / 1000).toFixed(2)} s)`}, floor ${floor.wallS} s (send ${(floor.sendMs / 1000).toFixed(2)} s), load ${oneMinuteLoad()}\n`,
    );
  }
} finally {
  await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const med = (side: Side, key: keyof Measured) => median(runs.map((r) => r[side][key]));
const ratio = (f: (r: (typeof runs)[number]) => number) => median(runs.map(f)).toFixed(2);
const row = (name: string, side: Side) =>
  `| ${name} | ${med(side, 'wallS').toFixed(2)} | ${med(side, 'cpuS').toFixed(2)} | ${med(side, 'rssMb').toFixed(0)} | ${(med(side, 'sendMs') / 1000).toFixed(2)} | ${med(side, 'sendCpuUsPerRequest').toFixed(0)} |`;
const ratios = (side: Side) =>
  `whole process **${ratio((r) => r.floor.wallS / r[side].wallS)}**, send phase **${ratio((r) => r.floor.sendMs / r[side].sendMs)}**; CPU against the floor's (target ≤ 1.3): send phase per request **${ratio((r) => r[side].sendCpuUsPerRequest / r.floor.sendCpuUsPerRequest)}**, whole process ${ratio((r) => r[side].cpuS / r.floor.cpuS)}`;
const command = `npm run build && npx tsx bench/bench-client.bench.ts --cases ${CASES} --pairs ${PAIRS}${values.before === undefined ? '' : ' --before <older build>/cli/main.js'}`;
process.stdout.write(
  [
    `### \`bench --no-store\` against a raw undici client: ${CASES.toLocaleString('en-US')} cases, \`--parallel ${PARALLEL}\``,
    '',
    `Command: \`${command}\`. ${machineLine(true)}. Load average ${loadAtStart} at the start, ${oneMinuteLoad()} at the end; ${PAIRS} rounds, ${values.before === undefined ? 'decidekit then the floor' : 'this build, the older one, then the floor'} in each; medians; ratios within each round, then their median.`,
    '',
    '| process | wall (s) | CPU user + sys (s) | peak RSS (MB) | send phase (s) | send-phase CPU µs a request |',
    '|---|---:|---:|---:|---:|---:|',
    row(`\`decidekit bench --no-store --parallel ${PARALLEL}\``, 'decidekit'),
    ...(values.before === undefined ? [] : [row('the same, older build', 'before')]),
    row('raw undici `Pool` client (the floor)', 'floor'),
    '',
    `Throughput against the floor's (higher is better; target ≥ 0.8 whole, ≥ 0.9 send phase): ${ratios('decidekit')}.`,
    ...(values.before === undefined ? [] : ['', `The older build, same rounds: ${ratios('before')}.`]),
    '',
  ].join('\n'),
);
