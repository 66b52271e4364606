/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `decidekit view` in a real browser (Debian chromium, headless; every request but the view
 * server's is blocked and recorded): over a store with several runs, an audit and a probe,
 * the list shows each record with the numbers of `runs list --json`, a click opens a run
 * whose page shows the numbers of its `--format json` report, and the trace is filtered and
 * paged by the server. Screenshots of each page are written under test/.out/view/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../support/browser.js';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { Interruption } from '../../../src/cli/io.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const OUT = join(import.meta.dirname, '..', '..', '.out', 'view');
const tmp = tempFolderRemovedAfterAll('dk-view-');
const store = join(tmp, 'view.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { env: { XDG_DATA_HOME: tmp } });

interface Headline {
  accuracy: number | null;
  kl: number | null;
  brier: number | null;
  ece: number | null;
}
interface ListDoc {
  runs: { id: string; status: string; label: string | null; saved_cases: number; headline: Headline | null }[];
  audits: { id: string }[];
  probes: { id: string }[];
}
interface ReportDoc {
  summary: Headline & { total: number };
  decisions: { workflow: string; question_id: string; correct: boolean; status: string }[];
}

interface CompareDoc {
  headline: Record<'accuracy' | 'kl' | 'brier', { delta: number | null }>;
  changed: { case_id: string; workflow: string; question_id: string; after: { correct: boolean } }[];
}

interface ShowDoc {
  summary: { accuracy: number; accuracy_ci: [number, number] };
}
interface AuditDoc {
  summary: { audited: number; counts: Record<'agrees' | 'disagrees' | 'abstained' | 'unavailable', number> };
}
interface ProbeDoc {
  conformance: { passed: number };
}

let browser: TestBrowser;
let origin: string | null = null;
let url = '';
const stop = new AbortController();
let served: Promise<CliResult>;
/** Run ids by label. */
const runIds = new Map<string, string>();

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  for (const [model, limit, label] of [
    ['heuristic', '100', 'first'],
    ['prior', '100', 'second'],
    ['heuristic', '8', 'small'],
    ['heuristic', '100', 'first again'],
  ] as const) {
    const r = await cli(['bench', '--limit', limit, '--model', model, '--label', label]);
    expect(r.code, r.stderr).toBe(0);
  }
  expect((await cli(['audit', '--json'])).code).toBe(0);
  expect((await cli(['probe', '--cases', '6', '--json'])).code).toBe(0);
  const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as ListDoc;
  for (const r of list.runs) runIds.set(r.label!, r.id);
  let started: () => void;
  const listening = new Promise<void>((resolve) => (started = resolve));
  served = runCliInProcess(['view', '--store', store, '--port', '0'], {
    env: { XDG_DATA_HOME: tmp },
    signal: stop.signal,
    onStdout: (text) => {
      if (text.includes('\n')) {
        url = text.split('\n')[0]!;
        origin = new URL(url).origin;
        started();
      }
    },
  });
  await listening;
  browser = await launchBrowser({ allowOrigin: () => origin });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  stop.abort(new Interruption('SIGINT'));
  await served;
});

describe('decidekit view', () => {
  it('prints a loopback URL and stops on Ctrl+C with exit 130', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const own = new AbortController();
    const r = runCliInProcess(['view', '--store', store, '--port', '0'], {
      signal: own.signal,
      onStdout: () => own.abort(new Interruption('SIGINT')),
    });
    const done = await r;
    expect(done.code).toBe(130);
    expect(done.stderr).not.toContain('warning');
  });

  it('warns that another host has no authentication, and says in words when it cannot listen there', async () => {
    const r = await runCliInProcess(['view', '--store', store, '--port', '0', '--host', '192.0.2.1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('there is no authentication');
    expect(r.stderr).toContain('192.0.2.1 is not an address of this machine');
    expect(r.stderr).not.toMatch(/EADDRNOTAVAIL|at .*\.js:\d+/);
  });

  it('lists every run, audit and probe with the numbers of runs list --json', async () => {
    const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as ListDoc;
    const { page, errors } = await browser.openUrl(url);
    await page.screenshot({ path: join(OUT, 'list.png'), fullPage: true });
    expect(errors).toEqual([]);
    const ids = await page
      .locator('#records tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids.sort()).toEqual([...list.runs, ...list.audits, ...list.probes].map((r) => r.id).sort());
    for (const run of list.runs) {
      const row = page.locator(`#records tr[data-id="${run.id}"]`);
      for (const key of ['accuracy', 'kl', 'brier', 'ece'] as const) {
        const value = await row.locator(`[data-f="${key}"]`).getAttribute('data-value');
        expect(Number(value)).toBe(run.headline![key]);
      }
    }
    expect(browser.blocked).toEqual([]);
  });

  it('filters the list by label and model on the server, and sorts it by a metric', async () => {
    const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as ListDoc;
    const { page } = await browser.openUrl(url);
    await page.fill('#filter-label', 'small');
    await page.click('#apply-filters');
    await page.waitForURL(/label=small/);
    const ids = await page
      .locator('#records tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids).toEqual(list.runs.filter((r) => r.label === 'small').map((r) => r.id));
    const sorted = await browser.openUrl(`${url}?sort=accuracy`);
    const accuracies = await sorted.page
      .locator('#records tbody tr[data-kind="run"] [data-f="accuracy"]')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))));
    expect(accuracies).toEqual([...accuracies].sort((a, b) => b - a));
  });

  it('opens a run from the list with the numbers of its JSON report, and filters its trace on the server', async () => {
    const id = runIds.get('second')!;
    const report = JSON.parse((await cli(['runs', 'report', id, '--format', 'json'])).stdout) as ReportDoc;
    const { page, errors } = await browser.openUrl(url);
    await page.click(`#records tr[data-id="${id}"] a[href="/runs/${id}"]`);
    await page.waitForURL(`**/runs/${id}`);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(OUT, 'run.png'), fullPage: true });
    const card = async (key: string) =>
      Number(await page.locator(`.card[data-key="${key}"]`).getAttribute('data-value'));
    expect(await card('accuracy')).toBe(report.summary.accuracy);
    expect(await card('kl')).toBe(report.summary.kl);
    expect(await page.locator('#view-trace tbody tr').count()).toBe(Math.min(100, report.summary.total));
    expect(await page.locator('#trace-next').count()).toBe(report.summary.total > 100 ? 1 : 0);

    const d = report.decisions.find((x) => !x.correct)!;
    const key = `${d.workflow}/${d.question_id}`;
    await page.selectOption('#t-question', key);
    await page.check('#t-wrong');
    await page.click('#t-apply');
    await page.waitForURL(/wrong=1/);
    const wanted = report.decisions.filter((x) => `${x.workflow}/${x.question_id}` === key && !x.correct);
    const questions = await page.locator('#view-trace tbody tr td:nth-child(2)').allTextContents();
    expect(questions).toEqual(wanted.map(() => key));
    expect(Number(await page.locator('#trace-count').getAttribute('data-matching'))).toBe(wanted.length);
    expect(browser.blocked).toEqual([]);
  });

  it('pages a long trace on the server', async () => {
    const id = runIds.get('first')!;
    const report = JSON.parse((await cli(['runs', 'report', id, '--format', 'json'])).stdout) as ReportDoc;
    expect(report.summary.total).toBeGreaterThan(100);
    const { page } = await browser.openUrl(`${url}runs/${id}`);
    await page.click('#trace-next');
    await page.waitForURL(/page=2/);
    const rows = await page.locator('#view-trace tbody tr').count();
    expect(rows).toBe(Math.min(100, report.summary.total - 100));
    expect(await page.locator('#trace-prev').count()).toBe(1);
  });

  it('compares two runs chosen in the list: paired numbers and changed decisions of runs compare --json', async () => {
    const [a, b] = [runIds.get('first')!, runIds.get('second')!];
    const doc = JSON.parse((await cli(['runs', 'compare', a, b, '--json'])).stdout) as CompareDoc;
    const { page, errors } = await browser.openUrl(url);
    await page.check(`#records tr[data-id="${a}"] input[type=checkbox]`);
    await page.check(`#records tr[data-id="${b}"] input[type=checkbox]`);
    await page.click('#compare-selected');
    await page.waitForURL(/\/compare\?/);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(OUT, 'compare.png'), fullPage: true });
    await page.screenshot({ path: join(OUT, 'compare-top.png') });
    const deltas = await page
      .locator('#paired tbody tr')
      .evaluateAll((rows) => rows.map((r) => Number((r as HTMLTableRowElement).cells[3]!.getAttribute('data-value'))));
    expect(deltas.slice(0, 3)).toEqual([doc.headline.accuracy.delta, doc.headline.kl.delta, doc.headline.brier.delta]);
    const listed = await page
      .locator('#changed tbody tr')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-case')} ${r.getAttribute('data-question')}`));
    expect(listed).toEqual(doc.changed.slice(0, 200).map((d) => `${d.case_id} ${d.question_id}`));
    expect(Number(await page.locator('#changed-count').getAttribute('data-matching'))).toBe(doc.changed.length);
    expect(await page.locator('#changed tbody tr .dist').count()).toBeGreaterThan(0);

    const d = doc.changed.find((x) => x.after.correct)!;
    const key = `${d.workflow}/${d.question_id}`;
    await page.selectOption('#c-question', key);
    await page.selectOption('#c-change', 'fixed');
    await page.click('#c-apply');
    await page.waitForURL(/change=fixed/);
    const fixed = await page
      .locator('#changed tbody tr')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-case')} ${r.getAttribute('data-question')}`));
    expect(fixed).toEqual(
      doc.changed
        .filter((x) => `${x.workflow}/${x.question_id}` === key && x.after.correct)
        .map((x) => `${x.case_id} ${x.question_id}`),
    );
    await page.locator('#changed').screenshot({ path: join(OUT, 'compare-changed.png') });
    expect(browser.blocked).toEqual([]);
  });

  it('says in words why runs cannot be compared', async () => {
    const res = await fetch(`${url}compare?runs=${runIds.get('first')!}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('choose two or more runs');
    const other = await fetch(`${url}compare?runs=${runIds.get('first')!},${runIds.get('small')!}`);
    expect(other.status).toBe(400);
    expect(await other.text()).toMatch(/cannot compare/);
  });

  it("shows a model's runs on the same work over time, with the intervals runs show --json gives", async () => {
    const { page, errors } = await browser.openUrl(url);
    await page.click(`#records tr[data-id="${runIds.get('first')!}"] a[href^="/models/"]`);
    await page.waitForURL(/\/models\/heuristic/);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(OUT, 'model.png'), fullPage: true });
    for (const label of ['first', 'first again', 'small']) {
      const id = runIds.get(label)!;
      const shown = JSON.parse((await cli(['runs', 'show', id, '--json'])).stdout) as ShowDoc;
      const row = page.locator(`tr[data-id="${id}"]`);
      const accuracy = row.locator('td').nth(5);
      expect(Number(await accuracy.getAttribute('data-value'))).toBe(shown.summary.accuracy);
      expect(await accuracy.textContent()).toContain(`${(shown.summary.accuracy_ci[0] * 100).toFixed(1)}%`);
    }
    // The two 100-case runs are one work; the 8-case run another.
    expect(await page.locator('h2[id^="work-"]').count()).toBe(2);
    // The same model on the same cases answers the same: no change beyond noise.
    expect(await page.locator(`tr[data-id="${runIds.get('first again')!}"]`).getAttribute('data-accuracy')).toBe(
      'within_noise',
    );
    expect(await page.locator('svg[data-chart$="-chart"] [data-mark="line"]').count()).toBe(1);
  });

  it('shows the audit with the counts of its JSON, disagreements first, and the probe with its checks', async () => {
    const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as ListDoc;
    const auditId = list.audits[0]!.id;
    const audit = JSON.parse((await cli(['runs', 'show', auditId, '--json'])).stdout) as AuditDoc;
    const { page, errors } = await browser.openUrl(url);
    await page.click(`a[href="/audits/${auditId}"]`);
    await page.waitForURL(`**/audits/${auditId}`);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(OUT, 'audit.png'), fullPage: true });
    for (const key of ['agrees', 'disagrees', 'abstained', 'unavailable'] as const)
      expect(Number(await page.locator(`.card[data-key="${key}"]`).getAttribute('data-value'))).toBe(
        audit.summary.counts[key],
      );
    const statuses = await page
      .locator('#audit-table tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(statuses.length).toBe(audit.summary.audited);
    const firstOther = statuses.findIndex((x) => x !== 'disagrees');
    expect(statuses.slice(firstOther)).not.toContain('disagrees');

    const probeId = list.probes[0]!.id;
    const probe = JSON.parse((await cli(['runs', 'show', probeId, '--json'])).stdout) as ProbeDoc;
    const opened = await browser.openUrl(url);
    await opened.page.click(`a[href="/probes/${probeId}"]`);
    await opened.page.waitForURL(`**/probes/${probeId}`);
    expect(opened.errors).toEqual([]);
    await opened.page.screenshot({ path: join(OUT, 'probe.png'), fullPage: true });
    expect(Number(await opened.page.locator('.card[data-key="conformance_passed"]').getAttribute('data-value'))).toBe(
      probe.conformance.passed,
    );
    expect(browser.blocked).toEqual([]);
  });

  it('writes a bundle that opens from file:// with the same numbers, and no request leaves the files', async () => {
    const [a, b] = [runIds.get('first')!, runIds.get('second')!];
    const dir = join(tmp, 'site');
    const written = await cli(['view', '--bundle', dir, b, `${a},${b}`]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout.trim()).toBe(join(dir, 'index.html'));
    const first = await browser.open(join(dir, 'index.html'));
    const { page, errors } = first;
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(OUT, 'bundle-index.png'), fullPage: true });
    // The run not asked for is listed without a link; the comparison asked for is linked.
    expect(await page.locator(`#records tr[data-id="${runIds.get('small')!}"] a[href^="run-"]`).count()).toBe(0);
    await page.click(`#records tr[data-id="${b}"] a[href^="run-"]`);
    const report = JSON.parse((await cli(['runs', 'report', b, '--format', 'json'])).stdout) as ReportDoc;
    const card = async (key: string) =>
      Number(await page.locator(`.card[data-key="${key}"]`).getAttribute('data-value'));
    expect(await card('accuracy')).toBe(report.summary.accuracy);
    expect(await card('brier')).toBe(report.summary.brier);
    expect(await page.locator('#trace tbody tr').count()).toBe(report.summary.total);

    const doc = JSON.parse((await cli(['runs', 'compare', a, b, '--json'])).stdout) as CompareDoc;
    const index = await browser.open(join(dir, 'index.html'));
    await index.page.click('#comparisons a');
    expect(index.errors).toEqual([]);
    const deltas = await index.page
      .locator('#paired tbody tr')
      .evaluateAll((rows) => rows.map((r) => Number((r as HTMLTableRowElement).cells[3]!.getAttribute('data-value'))));
    expect(deltas.slice(0, 3)).toEqual([doc.headline.accuracy.delta, doc.headline.kl.delta, doc.headline.brier.delta]);
    const listed = await index.page
      .locator('#changed tbody tr')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-case')} ${r.getAttribute('data-question')}`));
    expect(listed).toEqual(doc.changed.map((d) => `${d.case_id} ${d.question_id}`));
    for (const opened of [first, index]) expect(opened.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(browser.blocked).toEqual([]);
  });

  it('refuses runs without --bundle, and a bundle over a file, in words', async () => {
    const r = await cli(['view', runIds.get('first')!]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('with --bundle only');
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const over = await cli(['view', '--bundle', file]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`--bundle ${file}`);
    expect(over.stderr).not.toMatch(/EEXIST|ENOTDIR|at .*\.js:\d+/);
  });

  it('answers an unknown run with a page that says so', async () => {
    const res = await fetch(`${url}runs/19990101-000000`);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toContain('19990101-000000');
    expect(text).not.toMatch(/at .*\.js:\d+|internal error/i);
  });
});

describe('a run being sent', () => {
  it('appears in the open list and fills in until it is complete, with the numbers of runs list --json', async () => {
    const slow = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 60 } });
    try {
      const { page, errors } = await browser.openUrl(url);
      const known = await page.locator('#records tbody tr').count();
      const sending = cli(['bench', '--base-url', slow.url, '--limit', '40', '--parallel', '1', '--label', 'live']);
      // The page polls the store: the new run appears (the page reloads for it) while it is sent.
      await page.waitForSelector('#records tr[data-status="running"]', { timeout: 60_000 });
      expect(await page.locator('#records tbody tr').count()).toBe(known + 1);
      const row = page.locator('#records tr[data-status="running"]');
      const id = await row.getAttribute('data-id');
      await page.waitForFunction(
        (runId) =>
          Number(document.querySelector(`tr[data-id="${runId}"] [data-f="cases"]`)?.getAttribute('data-value')) > 0,
        id,
        { timeout: 60_000 },
      );
      await page.screenshot({ path: join(OUT, 'list-running.png'), fullPage: true });
      const done = await sending;
      expect(done.code, done.stderr).toBe(0);
      await page.waitForSelector(`#records tr[data-id="${id!}"][data-status="complete"]`, { timeout: 60_000 });
      const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as ListDoc;
      const head = list.runs.find((r) => r.id === id)!;
      const finished = page.locator(`#records tr[data-id="${id!}"]`);
      await page.waitForFunction(
        (runId) =>
          document.querySelector(`tr[data-id="${runId}"] [data-f="accuracy"]`)?.getAttribute('data-value') !== '',
        id,
        { timeout: 60_000 },
      );
      expect(Number(await finished.locator('[data-f="accuracy"]').getAttribute('data-value'))).toBe(
        head.headline!.accuracy,
      );
      expect(Number(await finished.locator('[data-f="cases"]').getAttribute('data-value'))).toBe(head.saved_cases);
      expect(errors).toEqual([]);
      expect(browser.blocked).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 180_000);
});
