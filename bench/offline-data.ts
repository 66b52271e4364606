/**
 * Shared by the offline benchmarks: the seeded large offline files (generated once into
 * os.tmpdir() and reused) and the measurement of one child process (wall time, CPU, peak RSS).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSeededRandom } from '../src/core/seeded-random.js';

export interface OfflineDataFiles {
  readonly dir: string;
  readonly dataset: string;
  readonly results: string;
}

/** The files of `cases` cases, generated on first use (deterministic, seeded). */
export function offlineDataFiles(cases: number): OfflineDataFiles {
  const dir = join(tmpdir(), `decidekit-bench-offline-${cases}-v1`);
  const files = { dir, dataset: join(dir, 'dataset.jsonl'), results: join(dir, 'results.jsonl') };
  if (!existsSync(files.dataset) || !existsSync(files.results)) {
    process.stderr.write(`generating ${cases} cases into ${dir} ...\n`);
    generate(files, cases);
  }
  return files;
}

const OPTION_SETS = [
  ['allow', 'flag', 'remove'],
  ['none', 'spam', 'harassment', 'hate', 'self_harm'],
  ['billing', 'shipping', 'returns', 'technical'],
];
const PROMPTS = [
  'Does this post violate the threats policy?',
  'Is this message spam?',
  'Pick an action for this comment',
  'Which category fits this ticket best?',
  'Rate the severity from 0 to 10',
];

/** Writes both files in blocks through a temp name, so an interrupted run is not reused. */
function generate({ dir: DIR, dataset: DATASET, results: RESULTS }: OfflineDataFiles, CASES: number): void {
  mkdirSync(DIR, { recursive: true });
  const rnd = createSeededRandom(7);
  const d = openSync(`${DATASET}.tmp`, 'w');
  const r = openSync(`${RESULTS}.tmp`, 'w');
  let dBlock: string[] = [];
  let rBlock: string[] = [];
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  for (let i = 0; i < CASES; i++) {
    const id = `case-${String(i).padStart(7, '0')}`;
    const roll = rnd();
    const prompt = PROMPTS[i % PROMPTS.length]!;
    let decision: Record<string, unknown>;
    if (roll < 0.4) {
      const correct = rnd() < 0.4;
      dBlock.push(JSON.stringify({ id, kind: 'yes_no', prompt, correct }));
      decision = { probability: r3(correct ? 0.3 + 0.7 * rnd() : 0.7 * rnd()) };
    } else if (roll < 0.8) {
      const options = OPTION_SETS[i % OPTION_SETS.length]!;
      const correct = options[Math.floor(rnd() * options.length)]!;
      dBlock.push(JSON.stringify({ id, kind: 'choice', prompt, options, correct }));
      const weights = options.map((o) => (o === correct ? 2 : 0.2) + rnd());
      const total = weights.reduce((a, b) => a + b, 0);
      const probs = weights.map((w) => r3(w / total));
      probs[0] = r3(1 - probs.slice(1).reduce((a, b) => a + b, 0));
      // Half the lines give an object keyed by option with a picked option, half a list.
      if (i % 2 === 0)
        decision = {
          picked: options[probs.indexOf(Math.max(...probs))],
          probabilities: Object.fromEntries(options.map((o, k) => [o, probs[k]])),
        };
      else decision = { probabilities: probs };
    } else {
      const correct = Math.round(rnd() * 10);
      dBlock.push(JSON.stringify({ id, kind: 'score', prompt, score_min: 0, score_max: 10, correct }));
      decision = {
        value: Math.min(10, Math.max(0, Math.round((correct + (rnd() - 0.5) * 4) * 10) / 10)),
        confidence: r3(0.5 + rnd() / 2),
      };
    }
    rBlock.push(
      JSON.stringify({
        case_id: id,
        model: 'bench-model-large-2026-01',
        decision,
        cost_usd: Math.round(rnd() * 5e6) / 1e9,
        latency_ms: 200 + Math.round(rnd() * 1800),
      }),
    );
    if (dBlock.length === 10_000) {
      writeSync(d, `${dBlock.join('\n')}\n`);
      writeSync(r, `${rBlock.join('\n')}\n`);
      dBlock = [];
      rBlock = [];
    }
  }
  if (dBlock.length > 0) {
    writeSync(d, `${dBlock.join('\n')}\n`);
    writeSync(r, `${rBlock.join('\n')}\n`);
  }
  closeSync(d);
  closeSync(r);
  renameSync(`${DATASET}.tmp`, DATASET);
  renameSync(`${RESULTS}.tmp`, RESULTS);
}

export interface Measured {
  readonly seconds: number;
  readonly maxRssMb: number;
  /** User + system CPU seconds: steadier than wall time on a shared machine. NaN when unknown. */
  readonly cpuSeconds: number;
}

export const HAS_TIME = existsSync('/usr/bin/time');

/** Wall time and peak RSS of one child process (via /usr/bin/time -v, else resourceUsage). */
export function measure(cmd: string, args: readonly string[]): Measured {
  if (HAS_TIME) {
    const r = spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    if (!wall || !rss) throw new Error(`cannot parse /usr/bin/time output:\n${r.stderr.slice(-1000)}`);
    const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
    const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
    const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
    return {
      seconds,
      maxRssMb: Number(rss[1]) / 1024,
      cpuSeconds: user && sys ? Number(user[1]) + Number(sys[1]) : NaN,
    };
  }
  const wrapper = `const {spawnSync}=require('node:child_process');const t=process.hrtime.bigint();const r=spawnSync(process.argv[1],process.argv.slice(2),{stdio:'ignore'});if(r.status!==0)process.exit(1);const s=Number(process.hrtime.bigint()-t)/1e9;process.stdout.write(JSON.stringify({s,rss:process.resourceUsage().maxRSS}));`;
  const r = spawnSync(process.execPath, ['-e', wrapper, cmd, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed`);
  // maxRSS of resourceUsage covers the wrapper and (on Linux, RUSAGE_CHILDREN not included) is a lower bound.
  const o = JSON.parse(r.stdout) as { s: number; rss: number };
  return { seconds: o.s, maxRssMb: o.rss / 1024, cpuSeconds: NaN };
}

/** The two files' sizes, as the offline benchmarks state them. */
export function offlineFileSizes(files: OfflineDataFiles): string {
  return `dataset ${(statSync(files.dataset).size / 1e6).toFixed(0)} MB, results ${(statSync(files.results).size / 1e6).toFixed(0)} MB`;
}

/** The files for `cases`, read once into the page cache (so the first timed run does not pay the disk), with their sizes stated. */
export function warmOfflineFiles(cases: number): { readonly files: OfflineDataFiles; readonly size: string } {
  const files = offlineDataFiles(cases);
  spawnSync('cat', [files.dataset, files.results], { stdio: 'ignore' });
  return { files, size: offlineFileSizes(files) };
}
