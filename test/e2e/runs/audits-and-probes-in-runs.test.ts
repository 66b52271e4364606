/**
 * `runs list`, `runs show`, `report`, `runs export`, `compare`, `gate`, `check` and `delete` over a store holding bench runs,
 * audits and probes, through the real CLI in process and a real SQLite store.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-runs-kinds-');
const store = join(tmp, 'mixed.sqlite');
const cli = (argv: string[], columns?: number) =>
  runCliInProcess([...argv, '--store', store], columns === undefined ? {} : { columns, isTTY: true });

let auditId = '';
const probeIds: string[] = [];
let benchId = '';

beforeAll(async () => {
  for (const model of ['heuristic', 'prior']) {
    const r = await cli(['bench', '--limit', '2', '--model', model]);
    expect(r.code, r.stderr).toBe(0);
  }
  const audit = await cli(['audit', '--json']);
  expect(audit.code, audit.stderr).toBe(0);
  auditId = (JSON.parse(audit.stdout) as { id: string }).id;
  for (const cases of ['10', '12']) {
    const probe = await cli(['probe', '--cases', cases, '--json']);
    expect(probe.code, probe.stderr).toBe(0);
    probeIds.push((JSON.parse(probe.stdout) as { id: string }).id);
  }
  benchId = (JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as { runs: { id: string }[] }).runs[0]!.id;
}, 120_000);

describe('runs list over runs, audits and probes', () => {
  it.each([80, 100])('fits every line in %i columns', async (columns) => {
    const r = await cli(['runs', 'list'], columns);
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
    expect(r.stdout).toContain(auditId);
    for (const id of probeIds) expect(r.stdout).toContain(id);
  });

  it('counts every kind in the footer, and --limit says what each section leaves out', async () => {
    const all = await cli(['runs', 'list'], 200);
    expect(all.stdout).toContain(
      `2 runs in ${store} (2 complete). The store also holds 1 audit (1 complete) and 2 probes.`,
    );
    expect(all.stdout).not.toContain('newest of');
    const one = await cli(['runs', 'list', '--limit', '1'], 200);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`The 1 newest of 2 runs in ${store}`);
    expect(one.stdout).toContain('The 1 newest of 2 probes.');
    expect(one.stdout).not.toContain('newest of 1 audit');
    expect(one.stdout).toContain(probeIds[1]);
    expect(one.stdout).not.toContain(probeIds[0]);
    const json = JSON.parse((await cli(['runs', 'list', '--limit', '1', '--json'])).stdout);
    expect(json.probes).toHaveLength(1);
    expect(json.audits).toHaveLength(1);
  });
});

describe('an audit or probe id where a bench run is expected', () => {
  it('runs show shows a stored audit as audit printed it, in text and JSON', async () => {
    const shown = await cli(['runs', 'show', auditId.slice(0, 20)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(auditId);
    expect(shown.stdout).toContain("Cohen's kappa [95%]");
    const json = await cli(['runs', 'show', auditId, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'audit', id: auditId });
    const missing = await cli(['runs', 'show', 'audit-19990101']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no audit "audit-19990101"');
  });

  const argvOf: Record<string, (id: string) => string[]> = {
    report: (id) => ['report', id],
    'runs export': (id) => ['runs', 'export', id, '--format', 'jsonl'],
    'runs compare': (id) => ['runs', 'compare', benchId, id],
    'runs compare (a leaderboard)': (id) => ['runs', 'compare', benchId, benchId, id],
    'runs compare (html)': (id) => ['runs', 'compare', benchId, id, '--format', 'html'],
    'runs check': (id) => ['runs', 'check', id],
    'runs report': (id) => ['runs', 'report', id],
    'runs gate': (id) => ['runs', 'gate', '--baseline', benchId, '--candidate', id],
    'bench --resume': (id) => ['bench', '--resume', id],
  };
  it.each(
    Object.keys(argvOf).flatMap((command) => [
      [command, 'an answer audit'],
      [command, 'a server probe'],
    ]),
  )('%s on %s says what the id is and a command that shows it, which works when pasted', async (command, what) => {
    const id = () => (what === 'an answer audit' ? auditId : probeIds[0]!);
    const r = await cli(argvOf[command!]!(id()));
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('unknown run');
    expect(r.stderr).toContain(
      `${id()} is ${what}, not a bench run: '${command!.replace(/ \(.*\)$/, '')}' takes bench runs only`,
    );
    const hint = /Show it with: decidekit (.+?) \(add --json/.exec(r.stderr)?.[1];
    expect(hint).toBe(`runs show ${id()} --store ${store}`);
    const pasted = await runCliInProcess(hint!.split(' '));
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toMatch(/Verdict: |Cohen's kappa/);
    const asJson = await runCliInProcess([...hint!.split(' '), '--json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ id: id() });
  });

  it.each([
    ['a bench run', () => benchId],
    ['a server probe', () => probeIds[0]!],
  ])('audit --resume on %s says what the id is and a command that shows it', async (what, id) => {
    const r = await cli(['audit', '--resume', id()]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('no audit');
    expect(r.stderr).toContain(`${id()} is ${what}, not an answer audit: 'audit --resume' takes answer audits only`);
    expect(r.stderr).toContain(`Show it with: decidekit runs show ${id()} --store ${store} (add --json`);
  });

  it('an audit or probe id the store does not hold is still unknown', async () => {
    const r = await cli(['report', 'probe-19990101']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown run');
  });
});

describe('runs show, runs compare and the names of commands as typed', () => {
  it('runs show says once that the run used the synthetic sample', async () => {
    const r = await cli(['runs', 'show', benchId]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('not Typed Decisions scores')).toHaveLength(2);
    expect(r.stdout).toContain('question schemas from LocalLLaMA/typed-decisions');
  });

  it('runs compare lines up the two runs in its header, whatever the model names', async () => {
    const ids = (JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as { runs: { id: string }[] }).runs;
    const r = await cli(['runs', 'compare', ids[1]!.id, ids[0]!.id], 200);
    expect(r.code, r.stderr).toBe(0);
    const [a, b] = r.stdout.split('\n').filter((line) => /^ {2}[AB] {2}/.test(line));
    expect(a).toMatch(/ heuristic /);
    expect(b).toMatch(/ prior /);
    // The model column is padded: the created time starts at the same column on both lines.
    expect(a!.search(/\d{4}-\d\d-\d\d \d\d:\d\d/)).toBe(b!.search(/\d{4}-\d\d-\d\d \d\d:\d\d/));
    expect(a!.length).toBe(b!.length);
    // Paired intervals carry a sign on both ends, like the difference.
    const intervals = r.stdout.match(/\[[^\]]*\d[^\]]*\]/g) ?? [];
    expect(intervals.length).toBeGreaterThan(0);
    for (const i of intervals) expect(i).toMatch(/^\[[+-]\d.*, [+-]\d.*\]$/);
  });

  it('names the command as typed in its messages: report, runs report, runs export, runs gate', async () => {
    const out = join(tmp, 'report.md');
    const report = await cli(['report', benchId, '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toMatch(/^decidekit report: markdown report of run /);
    const runsReport = await cli(['runs', 'report', benchId, '--out', out]);
    expect(runsReport.stderr).toMatch(/^decidekit runs report: markdown report of run /);
    const exported = await cli(['runs', 'export', benchId]);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(/^decidekit runs export: needs --format /);
    expect(exported.stderr).toContain("Run 'decidekit runs export --help' for usage.");
    const unknown = await cli(['runs', 'show', 'nope']);
    expect(unknown.stderr).toMatch(/^decidekit runs show: unknown run/);
  });
});

// Last: it removes records the tests above read.
describe('runs delete on audits and probes', () => {
  it('deletes an audit and a probe by unique prefix, each alone, and refuses an ambiguous or unknown one', async () => {
    const count = async () => {
      const json = JSON.parse((await cli(['runs', 'list', '--json'])).stdout);
      return [json.runs.length, json.audits.length, json.probes.length];
    };
    expect(await count()).toEqual([2, 1, 2]);
    const ambiguous = await cli(['runs', 'delete', 'probe-']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(probeIds[0]);
    const unknown = await cli(['runs', 'delete', 'audit-19990101']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no audit "audit-19990101"');
    expect(await count()).toEqual([2, 1, 2]);

    const audit = await cli(['runs', 'delete', auditId.slice(0, 24), '--yes']);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toBe(`deleted answer audit ${auditId}\n`);
    expect(await count()).toEqual([2, 0, 2]);
    expect((await cli(['runs', 'show', auditId])).code).toBe(1);

    const probe = await cli(['runs', 'delete', probeIds[0]!, '--yes']);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stdout).toBe(`deleted server probe ${probeIds[0]}\n`);
    expect(await count()).toEqual([2, 0, 1]);
    expect((await cli(['runs', 'show', probeIds[1]!])).code).toBe(0);
  });
});
