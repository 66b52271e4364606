/**
 * End to end: intervals, paired comparisons, conventions and the gate through the real CLI
 * (`runCli` in process) against the embedded reference server on the bundled sample, and a
 * real SQLite store. Expectations are computed here from the runs' own decisions.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore, summarizeRun } from '../../../src/store/index.js';
import {
  answeredCase,
  CASE_IDS,
  rightAnswers,
  runConfig,
  wrongAnswers,
} from '../../../src/store/test-support/run-fixtures.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

type Json = Record<string, unknown>;
interface Decision {
  case_id: string;
  question_id: string;
  status: string;
  correct: boolean;
  confidence: number | null;
}

const dir = tempFolderRemovedAfterAll('decidekit-e2e-stats-');
const store = join(dir, 'runs.sqlite');

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });
}

/** A bench run on the bundled sample with the embedded server, stored; returns its JSON document. */
async function bench(args: string[]): Promise<Json> {
  const r = await cli(['bench', '--store', store, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

const summaryOf = (doc: Json) => doc['summary'] as Json;
const decisionsOf = (doc: Json) => doc['decisions'] as Decision[];

let heuristic: Json;
let prior: Json;
let uniform: Json;

beforeAll(async () => {
  heuristic = await bench(['--model', 'heuristic']);
  prior = await bench(['--model', 'prior']);
  uniform = await bench(['--model', 'uniform']);
}, 60_000);

/** ECE over `bins` equal-width bins, pooled, from the answered decisions of a bench JSON document. */
function eceOf(decisions: readonly Decision[], bins: number): number {
  const n = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  let total = 0;
  for (const d of decisions) {
    if (d.status !== 'answered') continue;
    const b = Math.min(Math.floor(d.confidence! * bins), bins - 1);
    n[b]!++;
    if (d.correct) hits[b]!++;
    conf[b]! += d.confidence!;
    total++;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (n[b]! > 0) ece += Math.abs(hits[b]! - conf[b]!) / total;
  return ece;
}

describe('runs compare of two different models on the bundled sample', () => {
  it('compares without --force and says which metrics differ beyond noise', async () => {
    const r = await cli(['runs', 'compare', heuristic['id'] as string, prior['id'] as string, '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('same dataset revision, cases and questions; the model or server differs');
    const json = await cli([
      'runs',
      'compare',
      heuristic['id'] as string,
      prior['id'] as string,
      '--store',
      store,
      '--json',
    ]);
    const doc = JSON.parse(json.stdout) as Json;
    expect([doc['same_fingerprint'], doc['same_work']]).toEqual([false, true]);
    const metrics = (doc['paired'] as Json)['metrics'] as Record<string, Json>;
    for (const [key, label, higherBetter] of [
      ['accuracy', 'accuracy', true],
      ['kl', 'KL from gold', false],
      ['brier', 'Brier', false],
      ['log_loss', 'log loss', false],
      ['ece', 'ECE', false],
    ] as const) {
      const m = metrics[key]!;
      const [low, high] = m['difference_ci'] as [number, number];
      const diff = (summaryOf(prior)[key] as number) - (summaryOf(heuristic)[key] as number);
      expect(m['difference']).toBeCloseTo(diff, 9);
      expect(low).toBeLessThanOrEqual(diff);
      expect(high).toBeGreaterThanOrEqual(diff);
      // The verdict follows the interval: beyond noise only when it excludes 0.
      const expected =
        low > 0 ? (higherBetter ? 'better' : 'worse') : high < 0 ? (higherBetter ? 'worse' : 'better') : 'within_noise';
      expect(m['verdict']).toBe(expected);
      const line = r.stdout.split('\n').find((l) => l.startsWith(`  ${label} `))!;
      expect(line).toContain(expected === 'within_noise' ? 'within noise' : expected);
    }
    // The prior model ignores the input: 12 points worse on accuracy, beyond noise.
    expect(metrics['accuracy']!['verdict']).toBe('worse');

    // McNemar counts the decisions each run alone got right.
    const right = new Map(decisionsOf(heuristic).map((d) => [`${d.case_id}/${d.question_id}`, d.correct]));
    let onlyA = 0;
    let onlyB = 0;
    for (const d of decisionsOf(prior)) {
      const a = right.get(`${d.case_id}/${d.question_id}`)!;
      if (a && !d.correct) onlyA++;
      if (d.correct && !a) onlyB++;
    }
    const mc = doc['mcnemar'] as Json;
    expect([mc['only_a_correct'], mc['only_b_correct']]).toEqual([onlyA, onlyB]);
    expect(mc['p_value']).toBeLessThan(0.05);
    expect(r.stdout).toContain(`${onlyA} decisions right only in A, ${onlyB} right only in B`);
  });

  it('ranks three runs by accuracy and marks the ones whose interval overlaps the leader’s as tied', async () => {
    const ids = [uniform, heuristic, prior].map((d) => d['id'] as string);
    const r = await cli(['runs', 'compare', ...ids, '--store', store, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as Json)['runs'] as Json[];
    const byAccuracy = [heuristic, prior, uniform].sort(
      (x, y) => (summaryOf(y)['accuracy'] as number) - (summaryOf(x)['accuracy'] as number),
    );
    expect(rows.map((row) => row['id'])).toEqual(byAccuracy.map((d) => d['id']));
    expect(rows.map((row) => row['rank'])).toEqual([1, 2, 3]);
    const [leadLow, leadHigh] = rows[0]!['accuracy_ci'] as [number, number];
    for (const row of rows.slice(1)) {
      const [low, high] = row['accuracy_ci'] as [number, number];
      expect(row['tied_with_leader']).toBe(low <= leadHigh && leadLow <= high);
    }
    const text = await cli(['runs', 'compare', ...ids, '--store', store]);
    expect(text.stdout).toContain('Leaderboard: 3 runs of the same work, ranked by accuracy');
  });
});

describe('runs compare --force of runs over overlapping but different cases', () => {
  /** Accuracy over the decisions of the given cases, from a bench JSON document. */
  function accuracyOver(doc: Json, caseIds: ReadonlySet<string>): number {
    const ds = decisionsOf(doc).filter((d) => caseIds.has(d.case_id));
    return ds.filter((d) => d.correct).length / ds.length;
  }

  it('takes the headline values, B - A, interval and verdict from the cases both runs have, and says so', async () => {
    const first40 = await bench(['--model', 'heuristic', '--limit', '40']);
    const shared = new Set(decisionsOf(first40).map((d) => d.case_id));
    expect(shared.size).toBe(40);
    // The same model on 40 of the same cases: whole runs differ, the shared cases do not.
    const sharedA = accuracyOver(heuristic, shared);
    const sharedB = accuracyOver(first40, shared);
    expect(sharedB).toBe(sharedA);
    expect(summaryOf(first40)['accuracy']).not.toBe(summaryOf(heuristic)['accuracy']);

    const args = ['runs', 'compare', heuristic['id'] as string, first40['id'] as string, '--store', store, '--force'];
    const json = await cli([...args, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as Json;
    expect(doc['headline_over']).toEqual({
      cases: 'shared_cases',
      shared_cases: 40,
      cases_only_in_a: 60,
      cases_only_in_b: 0,
    });
    const headline = (doc['headline'] as Record<string, Json>)['accuracy']!;
    expect(headline['a']).toBeCloseTo(sharedA, 12);
    expect(headline['b']).toBeCloseTo(sharedB, 12);
    expect(headline['delta']).toBe(0);
    const paired = ((doc['paired'] as Json)['metrics'] as Record<string, Json>)['accuracy']!;
    expect(paired['difference']).toBe(headline['delta']);
    expect(paired['verdict']).toBe('within_noise');

    const text = await cli(args);
    const row = text.stdout.split('\n').find((l) => l.startsWith('  accuracy '))!;
    expect(row.replace(/ +/g, ' ').trim()).toBe(
      `accuracy ${(sharedA * 100).toFixed(1)}% ${(sharedB * 100).toFixed(1)}% +0.0 pp [+0.0 pp, +0.0 pp] within noise`,
    );
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(
      'Accuracy, KL, Brier, log loss and ECE (A, B, B - A, intervals and verdicts) are over the 40 cases both runs have; 60 only in A left out.',
    );

    const gate = await cli([
      'runs',
      'gate',
      '--baseline',
      heuristic['id'] as string,
      '--candidate',
      first40['id'] as string,
      '--store',
      store,
      '--force',
    ]);
    expect(gate.stdout).toContain(
      `PASS accuracy ${(sharedA * 100).toFixed(1)}% → ${(sharedB * 100).toFixed(1)}% (baseline ${heuristic['id'] as string}, candidate ${first40['id'] as string}, over the 40 cases both runs have; change +0.0 pp`,
    );

    const html = await cli([...args, '--format', 'html']);
    expect(html.stdout).toContain('are over the 40 cases both runs have; 60 only in A left out.');
  });
});

describe('runs gate', () => {
  const gate = (baseline: Json, candidate: Json, ...more: string[]) =>
    cli([
      'runs',
      'gate',
      '--baseline',
      baseline['id'] as string,
      '--candidate',
      candidate['id'] as string,
      '--store',
      store,
      ...more,
    ]);

  it('exits 1 on a regression beyond noise and 0 otherwise, with one line saying why', async () => {
    const worse = await gate(heuristic, prior);
    expect(worse.code).toBe(1);
    expect(worse.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(worse.stdout).toMatch(/^FAIL accuracy 55\.6% → 43\.0% .*: the candidate is worse beyond noise\n$/);
    const better = await gate(prior, heuristic);
    expect(better.code).toBe(0);
    expect(better.stdout).toMatch(/^PASS .*: the candidate is better beyond noise\n$/);
    // A second run of the same model answers alike: within noise.
    const same = await gate(heuristic, await bench(['--model', 'heuristic']));
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('the difference is within noise');
    // One run as both sides would gate a run against itself: refused (a CI script's mistake).
    const itself = await gate(heuristic, heuristic);
    expect(itself.code).toBe(2);
    expect(itself.stderr).toContain(`are the same run ${heuristic['id'] as string}: give each run once`);
  });

  it('allows a drop up to --max-drop, and gates on another metric', async () => {
    const allowed = await gate(heuristic, prior, '--max-drop', '0.5');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('the candidate is worse, but not surely by more than the allowed 50.0 pp');
    const kl = await gate(heuristic, prior, '--metric', 'log_loss');
    expect(kl.code).toBe(1);
    expect(kl.stdout).toMatch(/^FAIL log loss /);
  });

  it('fails runs of different work with the reason, and needs both runs', async () => {
    const partial = await bench(['--model', 'heuristic', '--limit', '10']);
    const refused = await gate(heuristic, partial);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('they measured different work (case set: A 100 cases, B 10');
    const usage = await cli(['runs', 'gate', '--baseline', heuristic['id'] as string, '--store', store]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('decidekit runs gate: --baseline RUN and --candidate RUN are both needed');
    expect(usage.stderr).toContain("Run 'decidekit runs gate --help' for usage.");
  });

  it("gates runs of different work when the refusal's hint, --force, is added, with a warning", async () => {
    const partial = await bench(['--model', 'prior', '--limit', '10']);
    const refused = await gate(heuristic, partial);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(compare anyway with --force)');
    const forced = await gate(heuristic, partial, '--force');
    expect(forced.stderr).toContain('decidekit runs gate: warning: the runs measured different work');
    // Paired on the ten cases both runs answered: the prior is worse there too.
    expect(forced.stdout).toMatch(/^FAIL accuracy .*95% paired interval .*: the candidate is worse beyond noise\n$/);
    expect(forced.code).toBe(1);
  });

  it('bounds --max-drop by what the metric can move: a fraction for accuracy and ECE, 2 for Brier', async () => {
    const points = await gate(heuristic, prior, '--max-drop', '20');
    expect(points.code).toBe(2);
    expect(points.stdout).toBe('');
    expect(points.stderr).toContain(
      'decidekit runs gate: --max-drop 20: --max-drop is a fraction of accuracy (0.02 = 2 points); it must lie between 0 and 1',
    );
    const ece = await gate(heuristic, prior, '--metric', 'ece', '--max-drop', '1.5');
    expect(ece.code).toBe(2);
    const brier = await gate(heuristic, prior, '--metric', 'brier', '--max-drop', '1.5');
    expect(brier.code).toBe(0);
    expect((await gate(heuristic, prior, '--metric', 'brier', '--max-drop', '2.5')).code).toBe(2);
    const kl = await gate(heuristic, prior, '--metric', 'kl', '--max-drop', '20');
    expect(kl.code, kl.stderr).toBe(0);
    const whole = await gate(heuristic, prior, '--max-drop', '1');
    expect(whole.code).toBe(0);
  });
});

describe('seeds and conventions stored with the run', () => {
  it('gives identical intervals on re-report under the stored seed, and others under another seed', async () => {
    const run = await bench(['--model', 'heuristic', '--seed', '7']);
    expect((summaryOf(run)['conventions'] as Json)['seed']).toBe(7);
    const report = async (...more: string[]) => {
      const r = await cli(['report', run['id'] as string, '--format', 'json', '--store', store, ...more]);
      expect(r.code, r.stderr).toBe(0);
      return summaryOf(JSON.parse(r.stdout) as Json);
    };
    const again = await report();
    for (const key of ['accuracy_ci', 'kl_ci', 'brier_ci', 'log_loss_ci', 'ece_ci', 'ece_noise_floor'])
      expect(again[key]).toEqual(summaryOf(run)[key]);
    const other = await report('--seed', '8');
    expect((other['conventions'] as Json)['seed']).toBe(8);
    expect(other['accuracy']).toBe(summaryOf(run)['accuracy']);
    expect(other['accuracy_ci']).not.toEqual(summaryOf(run)['accuracy_ci']);
  });

  it('recomputes a stored run under other ECE conventions from its decisions', async () => {
    const r = await cli([
      'report',
      heuristic['id'] as string,
      '--format',
      'json',
      '--store',
      store,
      '--ece-bins',
      '15',
    ]);
    const s = summaryOf(JSON.parse(r.stdout) as Json);
    expect(s['ece']).toBeCloseTo(eceOf(decisionsOf(heuristic), 15), 12);
    expect(s['ece']).not.toBeCloseTo(summaryOf(heuristic)['ece'] as number, 6);
    expect(s['accuracy']).toBe(summaryOf(heuristic)['accuracy']);
    expect(s['conventions']).toMatchObject({ ece_bins: 15, recomputed: true });
    const text = await cli(['report', heuristic['id'] as string, '--store', store, '--ece-binning', 'equal-mass']);
    expect(text.stdout).toContain('Conventions: ECE over 10 equal-mass bins');
    expect(text.stdout).toContain('recomputed from the stored decisions');
  });

  it('refuses to compare numbers made under different conventions unless recomputed under one', async () => {
    const fifteen = await bench(['--model', 'prior', '--ece-bins', '15']);
    expect(summaryOf(fifteen)['ece']).toBeCloseTo(eceOf(decisionsOf(fifteen), 15), 12);
    const refused = await cli([
      'runs',
      'compare',
      heuristic['id'] as string,
      fifteen['id'] as string,
      '--store',
      store,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('their numbers were made under different conventions');
    expect(refused.stderr).toContain('ECE over 10 equal-width bins, pooled');
    expect(refused.stderr).toContain('ECE over 15 equal-width bins, pooled');
    const recomputed = await cli([
      'runs',
      'compare',
      heuristic['id'] as string,
      fifteen['id'] as string,
      '--store',
      store,
      '--ece-bins',
      '15',
      '--json',
    ]);
    expect(recomputed.code, recomputed.stderr).toBe(0);
    const ece = ((JSON.parse(recomputed.stdout) as Json)['headline'] as Record<string, Json>)['ece']!;
    expect(ece['a']).toBeCloseTo(eceOf(decisionsOf(heuristic), 15), 12);
    expect(ece['b']).toBeCloseTo(eceOf(decisionsOf(fifteen), 15), 12);
  });

  it('reads a run stored before conventions were recorded with the defaults, and says so', async () => {
    const old = join(dir, 'old.sqlite');
    const config = runConfig(); // no conventions: as stored by an earlier decidekit
    const cases = CASE_IDS.map((id, i) => answeredCase(id, i % 2 === 0 ? rightAnswers() : wrongAnswers()));
    const s = openStore(old);
    const head = s.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12.000Z' });
    s.cases.save(head.id, cases);
    const summary = summarizeRun(config, cases);
    s.runs.finish(head.id, { status: summary.status, durationMs: 10, summary });
    s.close();
    const r = await cli(['runs', 'show', head.id, '--store', old]);
    expect(r.code, r.stderr).toBe(0);
    // Wrapped to the width: read it as one paragraph.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'the run was stored before conventions were recorded: read with the defaults',
    );
    expect(r.stdout).toMatch(/accuracy +50\.0% {2}\[\d+\.\d%, \d+\.\d%\]/);
  });

  it('turns intervals off with --no-ci', async () => {
    const r = await cli(['report', heuristic['id'] as string, '--store', store, '--no-ci']);
    expect(r.stdout).toMatch(/^Accuracy +55\.6% {2}\(278\/500 decisions\)$/m);
    expect(r.stdout).toContain('Intervals were turned off (--no-ci).');
  });

  it('says why the paired comparison is null with --no-ci, in the comparison JSON', async () => {
    const ids = [heuristic['id'] as string, prior['id'] as string];
    const doc = JSON.parse(
      (await cli(['runs', 'compare', ...ids, '--store', store, '--json', '--no-ci'])).stdout,
    ) as Json;
    expect(doc['paired']).toBeNull();
    expect(doc['null_reasons']).toEqual({ paired: 'intervals are off (--no-ci)' });
    // Every headline number is present on the sample, so no delta needs a reason.
    for (const d of Object.values(doc['headline'] as Record<string, Json>)) expect(d['null_reasons']).toBeUndefined();
  });
});
