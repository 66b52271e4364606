/** `decidekit runs check` on a real store: clean, then with one stored decision changed. */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { nonSnakeKeys } from '../../../src/reports/test-support/json-keys.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-runs-check-');

describe('runs check', () => {
  it('passes a clean store and names the run whose stored decision was changed', async () => {
    const store = join(tmp, 'runs.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '4', '--store', store]);
    expect(bench.code, bench.stderr).toBe(0);
    const clean = await runCliInProcess(['runs', 'check', '--store', store]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/1 run checked; every one reads back as it was saved/);

    const db = new Database(store);
    db.prepare(
      `UPDATE decisions SET correct = 1 - correct WHERE (run_id, case_position, position) =
        (SELECT run_id, case_position, position FROM decisions ORDER BY run_id, case_position, position LIMIT 1)`,
    ).run();
    db.close();
    const bad = await runCliInProcess(['runs', 'check', '--store', store, '--json']);
    expect(bad.code).toBe(1);
    const doc = JSON.parse(bad.stdout) as { runs: { problems: string[]; saved_cases: number }[] };
    expect(doc.runs[0]!.problems.length).toBeGreaterThan(0);
    expect(doc.runs[0]!.saved_cases).toBeGreaterThan(0);
  });

  it('reports a store too damaged to open as its finding, instead of sending the user back to runs check', async () => {
    const store = join(tmp, 'to-break.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '4', '--store', store]);
    expect(bench.code, bench.stderr).toBe(0);
    for (const [name, bytes] of [
      ['truncated.sqlite', readFileSync(store).subarray(0, 20_000)],
      ['first-page.sqlite', Buffer.concat([readFileSync(store).subarray(0, 16), Buffer.alloc(84, 0xff)])],
    ] as const) {
      const broken = join(tmp, name);
      writeFileSync(broken, bytes);
      const before = readFileSync(broken);
      const r = await runCliInProcess(['runs', 'check', '--store', broken]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');
      const [head, finding] = r.stdout.split('\n');
      expect(head).toBe(`SQLite's check of ${broken} found damage:`);
      expect(finding).toMatch(/^ {2}\S/);
      expect(r.stdout).toContain(`${broken}: the file is damaged and no run could be read from it`);
      expect(r.stdout).not.toContain('runs check --store');
      const json = await runCliInProcess(['runs', 'check', '--json', '--store', broken]);
      expect(json.code).toBe(1);
      const doc = JSON.parse(json.stdout) as { integrity: string[]; runs: unknown[] };
      expect(doc.integrity).toHaveLength(1);
      expect(doc.runs).toEqual([]);
      // Checking changes nothing.
      expect(readFileSync(broken).equals(before)).toBe(true);
      // Other commands still point here.
      expect((await runCliInProcess(['runs', 'list', '--store', broken])).stderr).toContain(
        `check it with: decidekit runs check --store ${broken};`,
      );
    }
  });

  it('passes a run stored before log loss and conventions existed, and reports it with the defaults', async () => {
    const store = join(tmp, 'older.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '4', '--store', store, '--json']);
    expect(bench.code, bench.stderr).toBe(0);
    const { id, summary } = JSON.parse(bench.stdout) as { id: string; summary: { log_loss: number } };
    // What an earlier decidekit stored: no log loss in the summary, no conventions in the configuration.
    const db = new Database(store);
    const row = db.prepare('SELECT summary_json, config_json FROM runs WHERE id = ?').get(id) as {
      summary_json: string;
      config_json: string;
    };
    const strip = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(strip)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(
              Object.entries(v)
                .filter(([k]) => k !== 'logLoss')
                .map(([k, x]) => [k, strip(x)]),
            )
          : v;
    const config = JSON.parse(row.config_json) as Record<string, unknown>;
    delete config['conventions'];
    db.prepare('UPDATE runs SET summary_json = ?, config_json = ? WHERE id = ?').run(
      JSON.stringify(strip(JSON.parse(row.summary_json))),
      JSON.stringify(config),
      id,
    );
    db.close();
    const check = await runCliInProcess(['runs', 'check', '--store', store]);
    expect(check.code, check.stdout).toBe(0);
    const report = await runCliInProcess(['report', id, '--format', 'json', '--store', store]);
    const doc = JSON.parse(report.stdout) as { summary: { log_loss: number; conventions: { recorded: boolean } } };
    expect(doc.summary.log_loss).toBe(summary.log_loss);
    expect(doc.summary.conventions.recorded).toBe(false);
  });

  it('finds a changed byte that moves no score: an answer neither gold nor predicted, a model name', async () => {
    const store = join(tmp, 'digest.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '3', '--store', store]);
    expect(bench.code, bench.stderr).toBe(0);
    const db = new Database(store);
    // A choice question with three or more answers: rename one that is neither gold nor predicted.
    const row = db
      .prepare(
        `SELECT case_position, position, case_id, answers_json, gold_label, predicted FROM decisions
         WHERE type = 'choice' AND json_array_length(answers_json) >= 3 ORDER BY case_position, position LIMIT 1`,
      )
      .get() as {
      case_position: number;
      position: number;
      case_id: string;
      answers_json: string;
      gold_label: string;
      predicted: string;
    };
    const answers = JSON.parse(row.answers_json) as string[];
    const other = answers.findIndex((a) => a !== row.gold_label && a !== row.predicted);
    answers[other] = `${answers[other]!.slice(0, -1)}${answers[other]!.endsWith('x') ? 'y' : 'x'}`;
    db.prepare('UPDATE decisions SET answers_json = ? WHERE case_position = ? AND position = ?').run(
      JSON.stringify(answers),
      row.case_position,
      row.position,
    );
    const second = db
      .prepare('SELECT case_id FROM cases WHERE case_id != ? ORDER BY position LIMIT 1')
      .get(row.case_id) as {
      case_id: string;
    };
    db.prepare("UPDATE cases SET answered_model = answered_model || ' ' WHERE case_id = ?").run(second.case_id);
    db.close();
    const bad = await runCliInProcess(['runs', 'check', '--store', store, '--json']);
    expect(bad.code).toBe(1);
    const doc = JSON.parse(bad.stdout) as { runs: { problems: string[] }[] };
    const changed = doc.runs[0]!.problems.find((p) => p.includes('changed since saved'));
    expect(changed).toContain('2 cases changed since saved');
    expect(changed).toContain(row.case_id);
    expect(changed).toContain(second.case_id);
    // The re-scoring alone sees nothing: neither change moves a number.
    expect(doc.runs[0]!.problems, JSON.stringify(doc.runs[0]!.problems)).toHaveLength(1);
  });

  it('infers the report format from --out, and deletes a run', async () => {
    const store = join(tmp, 'other.sqlite');
    const bench = await runCliInProcess(['bench', '--limit', '2', '--store', store]);
    const id = /run (\S+) saved/.exec(bench.stderr)![1]!;
    const md = join(tmp, 'r.md');
    const report = await runCliInProcess(['report', id, '--out', md, '--store', store]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(md, 'utf8')).toMatch(/^# /);
    const html = join(tmp, 'r.html');
    expect((await runCliInProcess(['report', id, '--out', html, '--store', store])).code).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/i);
    const gone = await runCliInProcess(['runs', 'delete', id.slice(0, 17), '--yes', '--store', store]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toBe(`deleted run ${id}\n`);
    const show = await runCliInProcess(['runs', 'show', id, '--store', store]);
    expect(show.code).toBe(1);
  });

  it('lists audits beside benchmark runs in runs list', async () => {
    const store = join(tmp, 'mixed.sqlite');
    expect((await runCliInProcess(['bench', '--limit', '2', '--store', store])).code).toBe(0);
    const audit = await runCliInProcess(['audit', '--store', store, '--label', `long ${'label '.repeat(30)}`]);
    expect(audit.code, audit.stderr).toBe(0);
    const probe = await runCliInProcess(['probe', '--store', store]);
    expect(probe.code, probe.stderr).toBe(0);
    const list = await runCliInProcess(['runs', 'list', '--store', store]);
    expect(list.stdout).toMatch(/^Audits /m);
    expect(list.stdout).toMatch(/^Probes /m);
    // Every section fits 100 columns: the audit's long label is cut with an ellipsis.
    for (const line of list.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(list.stdout).toMatch(/^audit-\S+ .* long label.*…$/m);
    expect(list.stdout).toMatch(/^audit-\S+ .* complete /m);
    const json = JSON.parse((await runCliInProcess(['runs', 'list', '--json', '--store', store])).stdout) as {
      runs: unknown[];
      audits: { kind: string; judge_endpoint: { scheme: string } }[];
    };
    expect(json.runs).toHaveLength(1);
    expect(json.audits[0]!.judge_endpoint.scheme).toBe('embedded');
    expect(nonSnakeKeys(json)).toEqual([]);
    expect(json.audits.map((a) => a.kind)).toEqual(['audit']);
  });
});
