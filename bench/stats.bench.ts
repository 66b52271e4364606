/**
 * Cost of the statistics core (src/core/stats) on its own: building the per-case sample,
 * the 2,000-resample case-level bootstrap, the ECE noise floor (2,000 simulations by default) and the
 * paired bootstrap, on a Typed Decisions-sized run (2,000 cases of five decisions) and on a
 * million one-decision cases (the block path). CPU time of this process, median of N runs.
 *
 *   npx tsx bench/stats.bench.ts [--runs N] [--simulations S]
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_CALIBRATION } from '../src/core/calibration.js';
import { createSeededRandom } from '../src/core/seeded-random.js';
import { bootstrapIntervals, pairedBootstrap } from '../src/core/stats/bootstrap.js';
import { CaseSampleBuilder, type CaseSample } from '../src/core/stats/case-sample.js';
import { DEFAULT_CONVENTIONS } from '../src/core/stats/conventions.js';
import { DEFAULT_NOISE_SIMULATIONS, eceNoiseFloor } from '../src/core/stats/noise-floor.js';
import { median, oneMinuteLoad } from './measurements.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, simulations: { type: 'string' } } });
const RUNS = Number(values.runs);
const SIMULATIONS = values.simulations === undefined ? DEFAULT_NOISE_SIMULATIONS : Number(values.simulations);

function sample(cases: number, perCase: number, seed: number): CaseSample {
  const random = createSeededRandom(seed);
  const b = new CaseSampleBuilder();
  for (let i = 0; i < cases; i++) {
    const hits: boolean[] = [];
    const conf: number[] = [];
    for (let k = 0; k < perCase; k++) {
      const c = 0.4 + 0.6 * random();
      conf.push(c);
      hits.push(random() < c);
    }
    b.addCase(`case-${i}`, {
      decisions: perCase,
      correct: hits.filter(Boolean).length,
      answered: perCase,
      kl: perCase * 0.3 * random(),
      brier: perCase * 0.4 * random(),
    });
    conf.forEach((c, k) => b.addDecision(c, hits[k]!, `w/q${k}`));
  }
  return b.build();
}

function cpuMs(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

const rows: string[] = [];
for (const [label, cases, perCase] of [
  ['400 cases × 5 decisions (2,000 decisions)', 400, 5],
  ['2,000 cases × 5 decisions', 2000, 5],
  ['1,000,000 cases × 1 decision', 1_000_000, 1],
] as const) {
  const measured = { build: [] as number[], boot: [] as number[], floor: [] as number[], paired: [] as number[] };
  let a: CaseSample | null = null;
  let b: CaseSample | null = null;
  for (let r = 0; r < RUNS; r++) {
    measured.build.push(cpuMs(() => (a = sample(cases, perCase, 1))));
    b = sample(cases, perCase, 2);
    measured.boot.push(cpuMs(() => bootstrapIntervals(a!, DEFAULT_CONVENTIONS)));
    measured.floor.push(cpuMs(() => eceNoiseFloor(a!, DEFAULT_CALIBRATION, { seed: 1, simulations: SIMULATIONS })));
    measured.paired.push(cpuMs(() => pairedBootstrap(a!, b!, DEFAULT_CONVENTIONS)));
  }
  rows.push(
    `| ${label} | ${median(measured.build).toFixed(0)} | ${median(measured.boot).toFixed(0)} | ${median(measured.floor).toFixed(0)} | ${median(measured.boot).toFixed(0)} + ${median(measured.floor).toFixed(0)} = ${(median(measured.boot) + median(measured.floor)).toFixed(0)} | ${median(measured.paired).toFixed(0)} |`,
  );
}
// The noise floor where it draws decision by decision: averaged per question over small
// questions (the default number of simulations, capped by DEFAULT_DRAW_BUDGET).
const floorRows: string[] = [];
for (const [label, n, questions] of [
  ['2,000 decisions in 100 questions', 2000, 100],
  ['200,000 one-decision questions', 200_000, 200_000],
] as const) {
  const random = createSeededRandom(1);
  const b = new CaseSampleBuilder();
  for (let i = 0; i < n; i++) {
    const c = 0.5 + 0.5 * random();
    const hit = random() < c;
    b.addCase(`c${i}`, { decisions: 1, correct: hit ? 1 : 0, answered: 1 });
    b.addDecision(c, hit, `q${i % questions}`);
  }
  const s = b.build();
  const options = { ...DEFAULT_CALIBRATION, average: 'per-question' } as const;
  let ran = 0;
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++)
    ms.push(
      cpuMs(
        () =>
          (ran = eceNoiseFloor(s, options, {
            seed: 1,
            ...(values.simulations === undefined ? {} : { simulations: SIMULATIONS }),
          })!.simulations),
      ),
    );
  floorRows.push(`| ${label} | ${ran} | ${median(ms).toFixed(0)} |`);
}
const load = oneMinuteLoad();
process.stdout.write(
  [
    `Command: \`npx tsx bench/stats.bench.ts --runs ${RUNS}${values.simulations === undefined ? '' : ` --simulations ${SIMULATIONS}`}\``,
    `Machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown'}, node ${process.version}; load average ${load}`,
    `CPU milliseconds of this process, median of ${RUNS} runs (sample building includes making the synthetic data)`,
    '',
    `| sample | build sample | bootstrap (2,000 resamples) | noise floor (${SIMULATIONS}) | intervals total | paired bootstrap |`,
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'ECE noise floor averaged per question (outcomes drawn decision by decision):',
    '',
    '| sample | simulations run | noise floor CPU ms |',
    '|---|---:|---:|',
    ...floorRows,
  ].join('\n') + '\n',
);
