/**
 * End-to-end: a map fitted on a stored benchmark run of the built-in heuristic model
 * (`calibrate RUN --out`) applied by `report RUN --calibration`, on the embedded server and a
 * real SQLite store; maps that do not fit a run refused before any work, naming the difference.
 */
import Database from 'better-sqlite3';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODERATION = join(ROOT, 'data', 'moderation');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-calibration-runs-');
const store = join(tmp, 'runs.sqlite');
const map = join(tmp, 'map.json');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: tmp });
}

type Numbers = Record<'accuracy' | 'kl' | 'brier' | 'log_loss' | 'ece', number>;
const METRICS = ['accuracy', 'kl', 'brier', 'log_loss', 'ece'] as const;

let runId = '';
let fitted: Numbers;

beforeAll(async () => {
  const bench = await cli('bench', '--model', 'heuristic', '--store', store, '--json');
  expect(bench.code).toBe(0);
  runId = (JSON.parse(bench.stdout) as { id: string }).id;
  const c = await cli('calibrate', runId, '--store', store, '--by', 'type', '--out', map, '--json');
  expect(c.code).toBe(0);
  fitted = (JSON.parse(c.stdout) as { overall: { fitted: Numbers } }).overall.fitted;
});

describe('report RUN --calibration', () => {
  it("gives the map's in-sample numbers, and says they are recalibrated in JSON", async () => {
    const plain = await cli('report', runId, '--store', store, '--format', 'json');
    const r = await cli('report', runId, '--store', store, '--calibration', map, '--format', 'json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      calibration: Record<string, unknown>;
      summary: Numbers & { ci: unknown };
      decisions: { probabilities: Record<string, number> | null }[];
    };
    const raw = JSON.parse(plain.stdout) as typeof doc;
    // The bootstrap sums in fixed point (multiples of 2^-32): equal to nine digits.
    for (const m of METRICS) expect(doc.summary[m]).toBeCloseTo(fitted[m], 9);
    expect(doc.summary.log_loss).not.toBeCloseTo(raw.summary.log_loss, 6);
    expect(doc.summary.accuracy).toBe(raw.summary.accuracy);
    expect(doc.calibration).toEqual({
      path: map,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      method: 'temperature',
      by: 'type',
      recalibrated: true,
    });
    expect(raw).not.toHaveProperty('calibration');
    // The decisions listed are the recalibrated ones.
    expect(doc.decisions[0]!.probabilities).not.toEqual(raw.decisions[0]!.probabilities);
    // The store is unchanged: a plain report again gives the raw numbers.
    const again = await cli('report', runId, '--store', store, '--format', 'json');
    expect(JSON.parse(again.stdout)).toEqual(raw);
  });

  it('says so in the terminal summary, the Markdown report and under the HTML title', async () => {
    const sha = (await hashOf(map)).slice(0, 12);
    const said = `recalibrated with ${map} (temperature by type, sha256 ${sha})`;
    const text = await cli('report', runId, '--store', store, '--calibration', map);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(said);
    const md = await cli('report', runId, '--store', store, '--calibration', map, '--format', 'markdown');
    expect(md.stdout).toContain(`> **Recalibrated.** Every number ${said}`);
    const html = await cli('report', runId, '--store', store, '--calibration', map, '--format', 'html');
    expect(html.stdout).toMatch(/<\/h1>[\s\S]*recalibrated with [\s\S]*<\/header>/);
  });

  it('recomputes under other conventions from the recalibrated answers', async () => {
    const r = await cli(
      'report',
      runId,
      '--store',
      store,
      '--calibration',
      map,
      '--ece-bins',
      '15',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { summary: Numbers };
    expect(doc.summary.log_loss).toBeCloseTo(fitted.log_loss, 9);
  });

  it('refuses a map fitted on offline answers, before reading the run', async () => {
    const offline = join(tmp, 'offline.json');
    const c = await cli(
      'calibrate',
      '--dataset',
      join(MODERATION, 'dataset.jsonl'),
      '--results',
      join(MODERATION, 'results-loud-1.jsonl'),
      '--out',
      offline,
    );
    expect(c.code).toBe(0);
    // A copy of the store whose answers of the run cannot be read: a report that read them
    // would stop on the damage, so the refusal shows the map is checked first.
    const damaged = join(tmp, 'damaged.sqlite');
    const source = new Database(store, { readonly: true });
    source.exec(`VACUUM INTO '${damaged}'`);
    source.close();
    const db = new Database(damaged);
    db.prepare('UPDATE decisions SET probabilities_json = ? WHERE run_id = ?').run('{damaged', runId);
    db.close();
    const read = await cli('report', runId, '--store', damaged, '--calibration', map);
    expect(read.code).toBe(1);
    expect(read.stderr).toContain(`run store ${damaged} is damaged`);
    const r = await cli('report', runId, '--store', damaged, '--calibration', offline);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('is damaged');
    expect(r.stderr).toContain(`--calibration MAP: calibration map ${offline} was fitted on offline answers`);
    expect(r.stderr).toContain(`decidekit calibrate ${runId} --store ${damaged} --by type --out map-${runId}.json`);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('refuses a map without a group for a question the run answered, naming it', async () => {
    const byQuestion = join(tmp, 'by-question.json');
    expect((await cli('calibrate', runId, '--store', store, '--by', 'question', '--out', byQuestion)).code).toBe(0);
    const doc = JSON.parse(await readFile(byQuestion, 'utf8')) as { groups: { key: string }[] };
    const dropped = doc.groups[0]!.key;
    doc.groups = doc.groups.slice(1);
    await writeFile(byQuestion, JSON.stringify(doc));
    const r = await cli('report', runId, '--store', store, '--calibration', byQuestion, '--format', 'json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `calibration map ${byQuestion} does not fit run ${runId}: it has no group for question "${dropped}"`,
    );
    expect(r.stderr.match(/does not fit/g)).toHaveLength(1);
  });

  it('offers a fitting command that, pasted, writes a map file that was not there', async () => {
    const byQuestion = join(tmp, 'by-question.json');
    const before = await readFile(map, 'utf8');
    await writeFile(join(tmp, `map-${runId}.json`), before);
    const r = await cli('report', runId, '--store', store, '--calibration', byQuestion);
    expect(r.code).toBe(1);
    const hint = r.stderr.match(/fit one on this run with: (decidekit calibrate .*)/)![1]!;
    expect(hint).toBe(`decidekit calibrate ${runId} --store ${store} --by question --out map-${runId}-2.json`);
    const pasted = await cli(...hint.split(' ').slice(1));
    expect(pasted.code).toBe(0);
    expect(await readFile(join(tmp, `map-${runId}-2.json`), 'utf8')).toContain('"by": "question"');
    expect(await readFile(map, 'utf8')).toBe(before);
    expect(await readFile(join(tmp, `map-${runId}.json`), 'utf8')).toBe(before);
  });

  it('refuses a map file that cannot be read or is not a map, naming the file and the field', async () => {
    const gone = await cli('report', runId, '--store', store, '--calibration', join(tmp, 'nowhere.json'));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`cannot read calibration map: ${join(tmp, 'nowhere.json')} (no such file`);
    expect(gone.stderr).not.toMatch(/ENOENT/);
    const bad = join(tmp, 'bad.json');
    const doc = JSON.parse(await readFile(map, 'utf8')) as { groups: { parameters: { temperature: number } }[] };
    doc.groups[0]!.parameters.temperature = -1;
    await writeFile(bad, JSON.stringify(doc));
    const r = await cli('report', runId, '--store', store, '--calibration', bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}: groups[0].parameters.temperature: expected a positive number, got -1`);
  });

  it('lists a refused map under exit 1 in report --help and in docs/calibrate.md', async () => {
    const help = await cli('report', '--help');
    expect(help.code).toBe(0);
    const exits = help.stdout.replace(/\s+/g, ' ').match(/Exit codes: (.*?) 2 usage error/)![1]!;
    expect(exits).toMatch(/^0 ok, 1 .*calibration map/);
    const doc = (await readFile(join(ROOT, 'docs', 'calibrate.md'), 'utf8')).replace(/\s+/g, ' ');
    const checked = doc.slice(doc.indexOf('**Checked before any work.**'));
    expect(checked).toMatch(/every problem exits 1 \(invalid input/);
    expect(checked.slice(0, 800)).not.toMatch(/exits 2/);
  });
});

async function hashOf(path: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
