/**
 * End-to-end: `bench --calibration MAP` on the embedded server and a real SQLite store. The
 * answers are stored raw and scored recalibrated, so a run with a map gives exactly the numbers
 * `report RUN --calibration MAP` gives of a plain run of the same cases and seed; the map's hash
 * is part of the run's work (compare and resume tell the runs apart), a resume re-applies the
 * run's own map, and a map that does not fit is refused before anything is sent.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { RunPageCache, viewRunPage } from '../../../src/app/view/view-run-page.js';
import { SERVER_LINKS } from '../../../src/core/view/view-links.js';
import { renderDistribution } from '../../../src/reports/bench/bench-trace.js';
import { escapeHtml } from '../../../src/reports/html/html-escape.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODERATION = join(ROOT, 'data', 'moderation');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-bench-calibration-');
const store = join(tmp, 'runs.sqlite');
const map = join(tmp, 'map.json');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: tmp });
}

interface BenchDoc {
  id: string;
  fingerprint: string;
  calibration?: Record<string, unknown>;
  config: { calibration?: Record<string, unknown> };
  summary: Record<string, unknown>;
}

/** The numbers of a summary, without what differs between two sendings (latency, duration). */
function numbersOf(summary: Record<string, unknown>): Record<string, unknown> {
  const { latency_ms: _latency, by_replica: _replicas, ...rest } = summary;
  return rest;
}

function runIds(): string[] {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM runs ORDER BY id').all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

function storedProbabilities(runId: string): string[] {
  const db = new Database(store, { readonly: true });
  try {
    return (
      db.prepare('SELECT probabilities_json FROM decisions WHERE run_id = ? ORDER BY case_id, position').all(runId) as {
        probabilities_json: string;
      }[]
    ).map((r) => r.probabilities_json);
  } finally {
    db.close();
  }
}

let plain: BenchDoc;

beforeAll(async () => {
  const bench = await cli('bench', '--model', 'heuristic', '--store', store, '--json');
  expect(bench.code).toBe(0);
  plain = JSON.parse(bench.stdout) as BenchDoc;
  const c = await cli('calibrate', plain.id, '--store', store, '--by', 'type', '--out', map);
  expect(c.code).toBe(0);
});

describe('bench --calibration', () => {
  it('gives the numbers report RUN --calibration gives of a plain run, its answers stored raw', async () => {
    const r = await cli('bench', '--model', 'heuristic', '--store', store, '--calibration', map, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as BenchDoc;
    const report = await cli('report', plain.id, '--store', store, '--calibration', map, '--format', 'json');
    const expected = JSON.parse(report.stdout) as BenchDoc;
    expect(numbersOf(doc.summary)).toEqual(numbersOf(expected.summary));
    expect(doc.calibration).toEqual({ ...expected.calibration });
    expect(doc.config.calibration).toMatchObject({ path: map, method: 'temperature', by: 'type' });
    // Another map (none) is other work: another fingerprint.
    expect(doc.fingerprint).not.toBe(plain.fingerprint);
    expect(storedProbabilities(doc.id)).toEqual(storedProbabilities(plain.id));
    // The stored run reports as bench did, recalibrated by its own map.
    const again = await cli('report', doc.id, '--store', store, '--format', 'json');
    const stored = JSON.parse(again.stdout) as BenchDoc;
    expect(numbersOf(stored.summary)).toEqual(numbersOf(doc.summary));
    expect(stored.calibration).toEqual(doc.calibration);
    const shown = await cli('runs', 'show', doc.id, '--store', store);
    expect(shown.stdout).toMatch(/calibration +recalibrated with /);
    // The store's own check recomputes the recalibrated summary from the raw answers.
    const check = await cli('runs', 'check', doc.id, '--store', store);
    expect(check.code).toBe(0);
  });

  it('shows a recalibrated run in the viewer with its answers recalibrated in the trace', async () => {
    const withMap = runIds()[1]!;
    const doc = JSON.parse((await cli('report', withMap, '--store', store, '--format', 'json')).stdout) as {
      decisions: { answers: string[]; probabilities: number[] }[];
    };
    const raw = JSON.parse((await cli('report', plain.id, '--store', store, '--format', 'json')).stdout) as typeof doc;
    const first = doc.decisions[0]!;
    const shown = escapeHtml(renderDistribution(first.answers, first.probabilities));
    expect(shown).not.toBe(escapeHtml(renderDistribution(first.answers, raw.decisions[0]!.probabilities)));
    const page = viewRunPage(store, withMap, new URLSearchParams(), SERVER_LINKS, new RunPageCache());
    expect(page).toContain('recalibrated with');
    expect(page).toContain(shown);
  });

  it('says the numbers are recalibrated in the terminal and in every --out report', async () => {
    const out = join(tmp, 'reports');
    const r = await cli('bench', '--model', 'heuristic', '--no-store', '--calibration', map, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`recalibrated with ${map} (temperature by type, sha256 `);
    const files = (await readdir(out)).sort();
    expect(files.map((f) => f.replace(/^.*\./, ''))).toEqual(['html', 'json', 'md']);
    const [html, json, md] = await Promise.all(files.map((f) => readFile(join(out, f), 'utf8')));
    expect(html).toContain(`recalibrated with ${map}`);
    expect(md).toContain(`recalibrated with ${map}`);
    expect((JSON.parse(json!) as BenchDoc).calibration).toMatchObject({ path: map, recalibrated: true });
  });

  it('is other work than a plain run for runs compare, naming the map', async () => {
    const [, withMap] = runIds();
    const r = await cli('runs', 'compare', plain.id, withMap!, '--store', store);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('calibration map: A none, B sha256 ');
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const forced = await cli('runs', 'compare', plain.id, withMap!, '--store', store, '--force');
    expect(forced.code).toBe(0);
    // The warning and the note say what differs: the map, not the dataset, cases or questions.
    const said = (text: string) => text.replace(/\s+/g, ' ');
    expect(said(forced.stderr)).toContain('different work (calibration map: A none, B sha256 ');
    expect(said(forced.stdout)).toContain('different work (calibration map: A none, B sha256 ');
    for (const text of [forced.stderr, forced.stdout])
      expect(text).not.toContain('dataset revision, cases or questions');
    const gate = await cli(
      'runs',
      'gate',
      '--baseline',
      plain.id,
      '--candidate',
      withMap!,
      '--store',
      store,
      '--force',
    );
    expect(said(gate.stderr)).toContain('different work (calibration map: A none, B sha256 ');
    expect(gate.stderr).not.toContain('dataset revision, cases or questions');
    const page = join(tmp, 'compare-map.html');
    const html = await cli(
      'runs',
      'compare',
      plain.id,
      withMap!,
      '--store',
      store,
      '--force',
      '--format',
      'html',
      '--out',
      page,
    );
    expect(html.code).toBe(0);
    expect(await readFile(page, 'utf8')).toMatch(
      /these runs differ \(calibration map: [^;<]* none, [^;<]* sha256 [0-9a-f]{12}/,
    );
    // The note is wrapped to the width: its words, not one line.
    expect(forced.stdout.replace(/\s+/g, ' ')).toContain(`B: every number recalibrated with ${map} (temperature`);
    expect(forced.stdout).not.toContain('A: every number');
    const json = await cli('runs', 'compare', plain.id, withMap!, '--store', store, '--force', '--json');
    const doc = JSON.parse(json.stdout) as { a: Record<string, unknown>; b: Record<string, unknown> };
    expect(doc.a).not.toHaveProperty('calibration');
    expect(doc.b['calibration']).toMatchObject({ path: map, recalibrated: true });
  });

  it('re-applies the run’s own map on resume, and refuses another, naming the difference', async () => {
    const withMap = runIds()[1]!;
    // Take the last 30 cases out of the stored run, as if it had been stopped.
    const db = new Database(store);
    const gone = (
      db.prepare('SELECT case_id FROM cases WHERE run_id = ? ORDER BY position DESC LIMIT 30').all(withMap) as {
        case_id: string;
      }[]
    ).map((c) => c.case_id);
    for (const id of gone) {
      db.prepare('DELETE FROM decisions WHERE run_id = ? AND case_id = ?').run(withMap, id);
      db.prepare('DELETE FROM cases WHERE run_id = ? AND case_id = ?').run(withMap, id);
    }
    db.prepare("UPDATE runs SET status = 'interrupted' WHERE id = ?").run(withMap);
    db.close();

    const other = join(tmp, 'other-map.json');
    const doc = JSON.parse(await readFile(map, 'utf8')) as { groups: { parameters?: { temperature: number } }[] };
    for (const g of doc.groups) if (g.parameters) g.parameters.temperature *= 2;
    await writeFile(other, JSON.stringify(doc));
    const refused = await cli('bench', '--resume', withMap, '--store', store, '--calibration', other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot resume run ${withMap}: calibration map: stored sha256 `);
    expect(refused.stderr).toContain(`(${map}), now sha256 `);

    const resumed = await cli('bench', '--resume', withMap, '--store', store, '--json');
    expect(resumed.stderr).not.toContain('copy stored with the run');
    expect(resumed.code).toBe(0);
    const full = await cli('report', plain.id, '--store', store, '--calibration', map, '--format', 'json');
    expect(numbersOf((JSON.parse(resumed.stdout) as BenchDoc).summary)).toEqual(
      numbersOf((JSON.parse(full.stdout) as BenchDoc).summary),
    );
  });

  it('resumes with the copy stored with the run when the map file is gone, and says so', async () => {
    const kept = join(tmp, 'kept-map.json');
    await writeFile(kept, await readFile(map));
    const first = await cli('bench', '--model', 'heuristic', '--store', store, '--calibration', kept, '--json');
    const id = (JSON.parse(first.stdout) as BenchDoc).id;
    await rm(kept);
    const r = await cli('bench', '--resume', id, '--store', store);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `the calibration map ${kept} this run applies cannot be read: resuming with the copy stored with the run (sha256 `,
    );
  });

  it('refuses a map fitted on offline answers before anything is sent', async () => {
    const offline = join(tmp, 'offline.json');
    const data = (f: string) => join(MODERATION, f);
    await cli(
      'calibrate',
      '--dataset',
      data('dataset.jsonl'),
      '--results',
      data('results-loud-1.jsonl'),
      '--out',
      offline,
    );
    const before = runIds();
    const r = await cli('bench', '--model', 'heuristic', '--store', store, '--calibration', offline);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--calibration MAP: calibration map ${offline} was fitted on offline answers`);
    expect(runIds()).toEqual(before);
  });

  it('refuses a map without a group for a question type of the dataset, naming it, before anything is sent', async () => {
    const partial = join(tmp, 'no-score.json');
    const doc = JSON.parse(await readFile(map, 'utf8')) as { groups: { key: string }[] };
    doc.groups = doc.groups.filter((g) => g.key !== 'score');
    await writeFile(partial, JSON.stringify(doc));
    const before = runIds();
    const r = await cli('bench', '--model', 'heuristic', '--store', store, '--calibration', partial);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`calibration map ${partial} does not fit dataset `);
    expect(r.stderr).toContain('it has no group for question type "score" (its groups, by type: "choice", "noul")');
    expect(r.stderr.match(/does not fit/g)).toHaveLength(1);
    expect(runIds()).toEqual(before);
  });
});
