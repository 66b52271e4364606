/**
 * Every command that opens a damaged store says so in the store's words (which store, that it
 * is damaged, how to check it), never "internal error"; and `runs check` reports a stored
 * decision whose scores are out of range as a finding. Real stores made by `bench`, damaged
 * by overwriting the pages of one table or by changing one stored number.
 */
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, existsSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-damaged-store-');
const clean = join(dir, 'clean.sqlite');
let first = '';
let second = '';

const cli = (args: string[]): Promise<CliResult> =>
  runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });

beforeAll(async () => {
  const ids: string[] = [];
  for (const model of ['heuristic', 'prior']) {
    const r = await cli(['bench', '--limit', '12', '--model', model, '--store', clean, '--json']);
    expect(r.code, r.stderr).toBe(0);
    ids.push((JSON.parse(r.stdout) as { id: string }).id);
  }
  [first, second] = ids as [string, string];
}, 60_000);

/** A copy of the clean store with every page of `table` overwritten by garbage. */
function withPagesOverwritten(name: string, table: string): string {
  const path = join(dir, name);
  copyFileSync(clean, path);
  const db = new Database(path, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (
    db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'").all(table) as { pageno: number }[]
  ).map((r) => r.pageno);
  db.close();
  expect(pages.length).toBeGreaterThan(0);
  const fd = openSync(path, 'r+');
  for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  return path;
}

function expectDamageSaid(r: CliResult, store: string): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/internal error|SqliteError|\n\s+at /);
  expect(r.stderr).toContain(`run store ${store} is damaged`);
  expect(r.stderr).toContain(`check it with: decidekit runs check --store ${store}`);
  // Once per cause.
  expect(r.stderr.match(/is damaged/g)).toHaveLength(1);
}

describe('a store whose decisions were overwritten', () => {
  it('is said to be damaged by every command that reads the decisions', async () => {
    const store = withPagesOverwritten('decisions-gone.sqlite', 'decisions');
    const commands: string[][] = [
      ['runs', 'compare', first, second],
      ['runs', 'gate', '--baseline', first, '--candidate', second],
      // Under other conventions: under its own, its terminal report reads the numbers and
      // listings kept with it, as `runs show` does.
      ['report', first, '--ece-bins', '5'],
      ['report', first, '--format', 'json'],
      ['runs', 'report', first, '--format', 'markdown'],
      ['runs', 'show', first, '--ece-bins', '5'],
      ['runs', 'export', first, '--format', 'jsonl'],
      ['runs', 'export', first, '--format', 'csv', '--out', join(dir, 'export.csv')],
      ['runs', 'export', first, '--format', 'parquet', '--out', join(dir, 'export.parquet')],
      ['runs', 'delete', first, '--yes'],
    ];
    for (const args of commands) {
      const r = await cli([...args, '--store', store]);
      expectDamageSaid(r, store);
    }
    // What reads no decision still works: the list of runs.
    const list = await cli(['runs', 'list', '--store', store]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(first);
    // And the check names the damage as its finding.
    const check = await cli(['runs', 'check', '--store', store]);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe('');
    expect(check.stdout, check.stdout).toMatch(/^BAD /m);
  });

  it('is said to be damaged when the runs table itself was overwritten', async () => {
    const store = withPagesOverwritten('runs-gone.sqlite', 'runs');
    for (const args of [
      ['runs', 'list'],
      ['runs', 'show', first],
      ['runs', 'compare', first, second],
      ['report', first],
    ]) {
      const r = await cli([...args, '--store', store]);
      expectDamageSaid(r, store);
    }
  });
});

describe('a stored decision with an out-of-range score', () => {
  it('is a finding of runs check, named by its JSON key, and damage to the commands that read it', async () => {
    const store = join(dir, 'confidence.sqlite');
    copyFileSync(clean, store);
    const db = new Database(store);
    const row = db
      .prepare(
        "SELECT case_position, position, case_id, question_id FROM decisions WHERE run_id = ? AND status = 'answered' ORDER BY case_position, position LIMIT 1",
      )
      .get(first) as { case_position: number; position: number; case_id: string; question_id: string };
    db.prepare('UPDATE decisions SET confidence = -1 WHERE run_id = ? AND case_position = ? AND position = ?').run(
      first,
      row.case_position,
      row.position,
    );
    db.close();

    const check = await cli(['runs', 'check', '--store', store, '--json']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(1);
    const doc = JSON.parse(check.stdout) as { runs: { id: string; problems: string[] }[] };
    const problems = doc.runs.find((r) => r.id === first)!.problems.join('\n');
    expect(problems).toContain(`case ${row.case_id} question ${row.question_id}`);
    expect(problems).toMatch(/confidence -1\b.*between 0 and 1/);
    // The other run still checks out.
    expect(doc.runs.find((r) => r.id === second)!.problems).toEqual([]);

    for (const args of [
      ['runs', 'show', first, '--ece-bins', '5'],
      ['report', first, '--format', 'markdown'],
      ['runs', 'export', first, '--format', 'jsonl'],
      ['runs', 'export', first, '--format', 'parquet', '--out', join(dir, 'confidence.parquet')],
    ]) {
      const r = await cli([...args, '--store', store]);
      expectDamageSaid(r, store);
      expect(r.stderr).toContain('confidence -1');
    }
  });

  it('is damage to an export when a stored distribution is not JSON', async () => {
    const store = join(dir, 'gold-json.sqlite');
    copyFileSync(clean, store);
    const db = new Database(store);
    db.prepare(
      "UPDATE decisions SET gold_probabilities_json = '[0.5,' WHERE run_id = ? AND case_position = (SELECT max(case_position) FROM decisions WHERE run_id = ?)",
    ).run(first, first);
    db.close();
    // The last case's: Parquet finds it while DuckDB is writing the file, which is then not written.
    for (const format of ['jsonl', 'csv', 'parquet']) {
      const out = join(dir, `gold-json.${format}`);
      const r = await cli(['runs', 'export', first, '--format', format, '--out', out, '--store', store]);
      expect(existsSync(out), format).toBe(false);
      expectDamageSaid(r, store);
      expect(r.stderr).toContain('gold distribution');
      expect(r.stderr).toContain('is not valid JSON');
    }
  });

  it('is damage when a stored answer list holds the text of a gold distribution read before it', async () => {
    const store = join(dir, 'answers-shape.sqlite');
    copyFileSync(clean, store);
    const db = new Database(store);
    db.prepare(
      `UPDATE decisions SET answers_json = (SELECT gold_probabilities_json FROM decisions WHERE run_id = ? ORDER BY case_position, position LIMIT 1)
       WHERE run_id = ? AND case_position = (SELECT max(case_position) FROM decisions WHERE run_id = ?)`,
    ).run(first, first, first);
    db.close();
    const r = await cli([
      'runs',
      'export',
      first,
      '--format',
      'jsonl',
      '--out',
      join(dir, 'answers-shape.jsonl'),
      '--store',
      store,
    ]);
    expectDamageSaid(r, store);
    expect(r.stderr).toContain('answers of case');
    expect(r.stderr).toContain('has the wrong shape');
  });

  it('names the differing summary fields by their JSON keys', async () => {
    const store = join(dir, 'latency.sqlite');
    copyFileSync(clean, store);
    const db = new Database(store);
    db.prepare(
      'UPDATE cases SET latency_ms = latency_ms + 1000, input_tokens = input_tokens + 5 WHERE rowid = (SELECT min(rowid) FROM cases WHERE run_id = ?)',
    ).run(first);
    db.close();
    const check = await cli(['runs', 'check', '--store', store]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('in input_tokens, latency_ms.mean');
    expect(check.stdout).not.toMatch(/inputTokens|latencyMs/);
  });
});

/** A copy of the clean store whose cases' and decisions' cell pointers are shifted: many findings of SQLite's check. */
function withCellsOutOfOrder(name: string): string {
  const path = join(dir, name);
  copyFileSync(clean, path);
  const db = new Database(path, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (
    db.prepare("SELECT pageno FROM dbstat WHERE name IN ('cases', 'decisions') AND pagetype = 'leaf'").all() as {
      pageno: number;
    }[]
  ).map((r) => r.pageno);
  db.close();
  const fd = openSync(path, 'r+');
  for (const page of pages) {
    const buf = Buffer.alloc(pageSize);
    readSync(fd, buf, 0, pageSize, (page - 1) * pageSize);
    const cells = buf.readUInt16BE(3);
    // Every other cell starts 3 bytes late: its key reads out of order.
    for (let i = 0; i < cells; i += 2) buf.writeUInt16BE(buf.readUInt16BE(8 + 2 * i) + 3, 8 + 2 * i);
    writeSync(fd, buf, 0, pageSize, (page - 1) * pageSize);
  }
  closeSync(fd);
  return path;
}

describe("a store with many findings of SQLite's check", () => {
  it('shows a few of them, each on its own line, and says how many more', async () => {
    const store = withCellsOutOfOrder('cells-out-of-order.sqlite');
    const json = await cli(['runs', 'check', '--store', store, '--json']);
    expect(json.code).toBe(1);
    const findings = (JSON.parse(json.stdout) as { integrity: string[] }).integrity;
    // One finding an entry, every one of them.
    expect(findings.length).toBeGreaterThan(20);
    for (const f of findings) expect(f).not.toContain('\n');

    const check = await cli(['runs', 'check', '--store', store]);
    expect(check.code).toBe(1);
    expect(check.stdout).not.toContain('\\n');
    const lines = check.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith("SQLite's check of"));
    const shown = lines.slice(start + 1).filter((l) => /^ {2}\S/.test(l));
    expect(shown.length).toBeLessThanOrEqual(11);
    expect(shown.at(-1)).toBe(`  … and ${findings.length - (shown.length - 1)} more`);
    expect(shown.slice(0, -1)).toEqual(findings.slice(0, shown.length - 1).map((f) => `  ${f}`));
    expect(check.stdout.length).toBeLessThan(2000);
  });
});
