/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * HTML reports in a real browser (Debian chromium, headless, network blocked): the reports
 * load from file:// without console errors or requests, every chart has the expected marks,
 * table numbers equal the `--json` output, the trace filters work, and a screenshot of each
 * report kind is written under test/.out/.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../support/browser.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { renderBenchHtml } from '../../../src/reports/bench/bench-html.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { createRun, securityCase } from '../../../src/core/bench/test-support/bench-run-fixture.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const OUT = join(import.meta.dirname, '..', '..', '.out');
const tmp = tempFolderRemovedAfterAll('dk-html-');
let browser: TestBrowser;

interface JsonGroup {
  total: number;
  correct: number;
  accuracy: number | null;
  kl: number | null;
  brier: number | null;
  ece: number | null;
}
interface BenchDoc {
  id: string;
  summary: JsonGroup & {
    reliability: { n: number; mean_confidence: number; accuracy: number; gap: number }[];
    by_question: Record<string, JsonGroup>;
    by_workflow: Record<string, JsonGroup>;
    latency_ms: { n: number; p50: number | null; p95: number | null; mean: number | null };
    cost: { per_correct_usd: number | null } | null;
    accuracy_ci: [number, number];
  };
  decisions: {
    workflow: string;
    question_id: string;
    type: string;
    status: string;
    correct: boolean;
    confidence: number | null;
    gold_label: string;
    predicted: string | null;
  }[];
}

/** data-value of the cells of a table column, by header text. */
async function column(page: Page, tableId: string, header: string): Promise<(number | null)[]> {
  return page.evaluate(
    ([id, name]) => {
      const table = document.getElementById(id!) as HTMLTableElement;
      const index = [...table.tHead!.rows[0]!.cells].findIndex((c) => c.textContent === name);
      if (index === -1) throw new Error(`no column ${name} in ${id}`);
      return [...table.tBodies[0]!.rows].map((r) => {
        const v = r.cells[index]!.getAttribute('data-value');
        return v === null || v === '' ? null : Number(v);
      });
    },
    [tableId, header],
  );
}

async function visibleRows(page: Page, tableId: string): Promise<number> {
  return page.locator(`#${tableId} tbody tr:visible`).count();
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('bench --out writes an HTML report', () => {
  let doc: BenchDoc;
  let html: string;

  beforeAll(async () => {
    const out = join(tmp, 'reports');
    const res = await runCliInProcess(
      ['bench', '--limit', '40', '--parallel', '4', '--no-store', '--price-per-mtok', '0.5', '--out', out],
      inFolder(tmp),
    );
    expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
    const files = readdirSync(out);
    const json = files.find((f) => f.endsWith('.json'))!;
    doc = JSON.parse(readFileSync(join(out, json), 'utf8')) as BenchDoc;
    html = join(out, `${doc.id}.html`);
    expect(files).toContain(`${doc.id}.html`);
  }, 60_000);

  it('loads from file:// with no console error and no request leaving the file', async () => {
    const { page, errors } = await browser.open(html);
    expect(errors).toEqual([]);
    expect(browser.blocked).toEqual([]);
    await page.screenshot({ path: join(OUT, 'bench.png'), fullPage: true });
    const dark = await browser.open(html, { colorScheme: 'dark' });
    await dark.page.screenshot({ path: join(OUT, 'bench-dark-top.png') });
    expect(dark.errors).toEqual([]);
  });

  it('shows the headline numbers of the --json summary', async () => {
    const { page } = await browser.open(html);
    const card = async (key: string) =>
      Number(await page.locator(`.card[data-key="${key}"]`).getAttribute('data-value'));
    expect(await card('accuracy')).toBe(doc.summary.accuracy);
    expect(await card('kl')).toBe(doc.summary.kl);
    expect(await card('brier')).toBe(doc.summary.brier);
    expect(await card('ece')).toBe(doc.summary.ece);
    expect(await card('per_correct_usd')).toBe(doc.summary.cost!.per_correct_usd);
  });

  it('shows no incomplete-run banner and no failures section for a complete run', async () => {
    const { page } = await browser.open(html);
    expect(await page.locator('[data-run-status]').count()).toBe(0);
    expect(await page.locator('#failures').count()).toBe(0);
  });

  it('draws one point, one gap and one count bar per reliability bin, with the same numbers in the table', async () => {
    const { page } = await browser.open(html);
    const bins = doc.summary.reliability;
    expect(bins.length).toBeGreaterThan(1);
    const chart = page.locator('svg[data-chart="reliability"]');
    expect(await chart.locator('[data-mark="point"]').count()).toBe(bins.length);
    expect(await chart.locator('[data-mark="gap"]').count()).toBe(bins.length);
    expect(await chart.locator('[data-mark="count"]').count()).toBe(bins.length);
    expect(await chart.locator('[data-mark="diagonal"]').count()).toBe(1);
    expect(await page.locator('svg[data-chart="reliability"] title').first().textContent()).toBe('Reliability diagram');
    expect(await column(page, 'reliability-table', 'n')).toEqual(bins.map((b) => b.n));
    expect(await column(page, 'reliability-table', 'mean confidence')).toEqual(bins.map((b) => b.mean_confidence));
    expect(await column(page, 'reliability-table', 'accuracy')).toEqual(bins.map((b) => b.accuracy));
    expect(await column(page, 'reliability-table', 'gap')).toEqual(bins.map((b) => b.gap));
  });

  it('lists accuracy by question worst first, one bar and one majority tick per question', async () => {
    const { page } = await browser.open(html);
    const keys = Object.keys(doc.summary.by_question);
    expect(await page.locator('svg[data-chart="by-question-chart"] [data-mark="bar"]').count()).toBe(keys.length);
    expect(await page.locator('svg[data-chart="by-question-chart"] [data-mark="reference"]').count()).toBe(keys.length);
    const shown = await page.locator('#by-question-table tbody tr td:first-child').allTextContents();
    expect([...shown].sort()).toEqual([...keys].sort());
    const accuracy = await column(page, 'by-question-table', 'accuracy');
    expect(accuracy).toEqual(shown.map((k) => doc.summary.by_question[k]!.accuracy));
    expect(accuracy).toEqual([...accuracy].sort((a, b) => a! - b!));
    // The majority rate, computed here from the decisions' gold labels.
    const majority = await column(page, 'by-question-table', 'majority rate');
    shown.forEach((key, i) => {
      const golds = doc.decisions.filter((d) => `${d.workflow}/${d.question_id}` === key).map((d) => d.gold_label);
      const top = Math.max(...[...new Set(golds)].map((g) => golds.filter((x) => x === g).length));
      expect(majority[i]).toBe(top / golds.length);
    });
    // Sorting by a header click puts the best question first.
    await page.locator('#by-question-table th', { hasText: /^accuracy$/ }).click();
    await page.locator('#by-question-table th', { hasText: /^accuracy$/ }).click();
    const sorted = await column(page, 'by-question-table', 'accuracy');
    expect(sorted[0]).toBe(Math.max(...accuracy.map((a) => a ?? -1)));
  });

  it('tables accuracy, KL, Brier and ECE by workflow as in the --json summary', async () => {
    const { page } = await browser.open(html);
    const shown = await page.locator('#by-workflow-table tbody tr td:first-child').allTextContents();
    expect([...shown].sort()).toEqual(Object.keys(doc.summary.by_workflow));
    for (const metric of ['accuracy', 'KL', 'Brier', 'ECE'] as const) {
      const key = ({ accuracy: 'accuracy', KL: 'kl', Brier: 'brier', ECE: 'ece' } as const)[metric];
      expect(await column(page, 'by-workflow-table', metric)).toEqual(
        shown.map((w) => doc.summary.by_workflow[w]![key]),
      );
    }
  });

  it('sorts the trace by a numeric column, absent values last', async () => {
    const { page } = await browser.open(html);
    await page.locator('#trace th', { hasText: /^KL$/ }).click();
    const shown = await page.locator('#trace tbody tr td:nth-child(7)').allTextContents();
    const numbers = shown.filter((t) => t !== 'n/a').map(Number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(shown.slice(numbers.length).every((t) => t === 'n/a')).toBe(true);
  });

  it('prints without the filters and with every trace row', async () => {
    const { page } = await browser.open(html);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#trace-filters').isVisible()).toBe(false);
    expect(await visibleRows(page, 'trace')).toBe(doc.decisions.length);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('draws a confusion matrix for each choice and score question, counts from the decisions', async () => {
    const { page } = await browser.open(html);
    const answered = doc.decisions.filter((d) => d.status === 'answered' && d.type !== 'noul');
    const keys = [...new Set(answered.map((d) => `${d.workflow}/${d.question_id}`))].sort();
    expect(await page.locator('figure.confusion').count()).toBe(keys.length);
    for (const key of keys) {
      const figure = page.locator(`figure.confusion[data-key="${key}"]`);
      const labels = await figure.locator('tbody th').allTextContents();
      expect(await figure.locator('[data-mark="cell"]').count()).toBe(labels.length ** 2);
      const cells = await figure
        .locator('[data-mark="cell"]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
      const mine = answered.filter((d) => `${d.workflow}/${d.question_id}` === key);
      labels.forEach((gold, r) =>
        labels.forEach((pred, c) =>
          expect(cells[r * labels.length + c]).toBe(
            mine.filter((d) => d.gold_label === gold && d.predicted === pred).length,
          ),
        ),
      );
    }
  });

  it('marks p50 and p95 on the latency histogram, with the --json values in its table', async () => {
    const { page } = await browser.open(html);
    const chart = page.locator('svg[data-chart="latency"]');
    expect(await chart.locator('[data-mark="marker"]').count()).toBe(2);
    const counts = await column(page, 'latency-table', 'requests');
    const { n, p50, p95, mean } = doc.summary.latency_ms;
    expect(counts.slice(-3)).toEqual([p50, p95, mean]);
    expect(counts.slice(0, -3).reduce((a, b) => a! + b!, 0)).toBe(n);
    expect(await chart.locator('[data-mark="bar"]').count()).toBe(counts.slice(0, -3).filter((c) => c! > 0).length);
  });

  it('filters the trace: wrong only, confident and wrong, by question', async () => {
    const { page } = await browser.open(html);
    expect(await visibleRows(page, 'trace')).toBe(doc.decisions.length);
    await page.getByLabel('wrong only').click();
    const wrong = doc.decisions.filter((d) => !d.correct);
    expect(wrong.length).toBeGreaterThan(0);
    expect(await visibleRows(page, 'trace')).toBe(wrong.length);
    expect(await page.locator('#trace tbody tr:visible[data-ok="1"]').count()).toBe(0);
    await page.getByLabel('wrong only').click();
    await page.getByLabel(/confident and wrong/).click();
    const confident = doc.decisions.filter((d) => d.status === 'answered' && !d.correct && d.confidence! >= 0.9);
    expect(await visibleRows(page, 'trace')).toBe(confident.length);
    await page.getByLabel(/confident and wrong/).click();
    const key = Object.keys(doc.summary.by_question)[0]!;
    await page.locator('#f-question').selectOption(key);
    expect(await visibleRows(page, 'trace')).toBe(doc.summary.by_question[key]!.total);
    expect(await page.locator('#trace-count').textContent()).toBe(
      `${doc.summary.by_question[key]!.total} of ${doc.decisions.length} decisions shown`,
    );
    await page.locator('#f-question').selectOption('');
    const workflow = Object.keys(doc.summary.by_workflow).at(-1)!;
    await page.locator('#f-workflow').selectOption(workflow);
    expect(await visibleRows(page, 'trace')).toBe(doc.summary.by_workflow[workflow]!.total);
    await page.getByLabel('wrong only').click();
    expect(await visibleRows(page, 'trace')).toBe(
      doc.decisions.filter((d) => d.workflow === workflow && !d.correct).length,
    );
  });
});

describe('bench --out of an incomplete run', () => {
  interface IncompleteDoc {
    id: string;
    summary: { status: string; requests: { total: number; answered: number; failed: number } };
    decisions: { case_id: string; status: string; error: { kind: string; message: string } | null }[];
  }
  let doc: IncompleteDoc;
  let html: string;
  let markdown: string;

  beforeAll(async () => {
    const server = await startReferenceServer({
      host: '127.0.0.1',
      port: 0,
      faults: { seed: 5, failRate: 0.3, failStatus: 503 },
    });
    try {
      const out = join(tmp, 'incomplete');
      const res = await runCliInProcess(
        ['bench', '--base-url', server.url, '--limit', '30', '--retries', '0', '--no-store', '--out', out],
        inFolder(tmp),
      );
      expect(res.code, res.stderr).toBe(1);
      const files = readdirSync(out);
      doc = JSON.parse(
        readFileSync(
          join(
            out,
            files.find((f) => f.endsWith('.json'))!,
          ),
          'utf8',
        ),
      ) as IncompleteDoc;
      html = join(out, `${doc.id}.html`);
      markdown = readFileSync(join(out, `${doc.id}.md`), 'utf8');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('says at the top that the run is incomplete, with the counts of the --json summary', async () => {
    expect(doc.summary.status).toBe('incomplete');
    expect(doc.summary.requests.failed).toBeGreaterThan(0);
    const { page, errors } = await browser.open(html);
    expect(errors).toEqual([]);
    const banner = page.locator('header [data-run-status="incomplete"]');
    expect(await banner.count()).toBe(1);
    const text = await banner.textContent();
    expect(text).toContain('Incomplete run');
    expect(text).toContain(`${doc.summary.requests.failed} of ${doc.summary.requests.total} requests failed`);
    expect(await banner.isVisible()).toBe(true);
    await page.screenshot({ path: join(OUT, 'bench-incomplete.png'), fullPage: true });
  });

  it('lists every failed case with its error, as the JSON and the Markdown do', async () => {
    const failed = new Map<string, string>();
    for (const d of doc.decisions)
      if (d.status === 'failed') failed.set(d.case_id, `${d.error!.kind}: ${d.error!.message}`);
    expect(failed.size).toBe(doc.summary.requests.failed);
    const { page } = await browser.open(html);
    expect(await page.locator('h2#failures').textContent()).toContain('Failed requests');
    const rows = await page
      .locator('#failures-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
    expect(new Map(rows.map(([id, kind, message]) => [id!, `${kind}: ${message}`]))).toEqual(failed);
    for (const id of failed.keys()) expect(markdown).toContain(`\`${id}\``);
  });
});

describe('stored runs: report --format html and runs compare --format html', () => {
  const store = () => join(tmp, 'runs.sqlite');
  const ids: string[] = [];
  const docs: BenchDoc[] = [];

  beforeAll(async () => {
    for (const model of ['heuristic', 'prior', 'uniform']) {
      const res = await runCliInProcess(
        [
          'bench',
          '--model',
          model,
          '--limit',
          '30',
          '--parallel',
          '4',
          '--store',
          store(),
          '--price-per-mtok',
          '0.5',
          '--json',
        ],
        inFolder(tmp),
      );
      const doc = JSON.parse(res.stdout) as BenchDoc;
      ids.push(doc.id);
      docs.push(doc);
    }
  }, 90_000);

  it('report RUN --format html renders the stored run with its --json numbers', async () => {
    const file = join(tmp, 'report.html');
    const res = await runCliInProcess(
      ['report', ids[0]!, '--format', 'html', '--out', file, '--store', store()],
      inFolder(tmp),
    );
    expect(res.code).toBe(0);
    const { page, errors } = await browser.open(file);
    expect(errors).toEqual([]);
    expect(await page.locator('svg[data-chart="reliability"] [data-mark="point"]').count()).toBe(
      docs[0]!.summary.reliability.length,
    );
    expect(Number(await page.locator('.card[data-key="accuracy"]').getAttribute('data-value'))).toBe(
      docs[0]!.summary.accuracy,
    );
    // The card carries the interval of the --json document, as the text shows it.
    const [low, high] = docs[0]!.summary.accuracy_ci;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    expect(await page.locator('.card[data-key="accuracy"]').textContent()).toContain(`95% [${pct(low)}, ${pct(high)}]`);
  });

  it('runs compare A B C --format html overlays the runs and draws both Pareto scatters', async () => {
    const file = join(tmp, 'compare.html');
    const res = await runCliInProcess(
      ['runs', 'compare', ...ids, '--format', 'html', '--out', file, '--force', '--store', store()],
      inFolder(tmp),
    );
    expect(res.code, res.stderr).toBe(0);
    const { page, errors } = await browser.open(file);
    expect(errors).toEqual([]);
    expect(browser.blocked).toEqual([]);
    const bins = docs.reduce((n, d) => n + d.summary.reliability.length, 0);
    expect(await page.locator('svg[data-chart="reliability"] [data-mark="point"]').count()).toBe(bins);
    expect(await column(page, 'runs-table', 'accuracy')).toEqual(docs.map((d) => d.summary.accuracy));
    // The leaderboard ranks the runs by accuracy, highest first.
    expect(await column(page, 'leaderboard', 'accuracy')).toEqual(
      docs.map((d) => d.summary.accuracy).sort((x, y) => y! - x!),
    );
    expect(await page.locator('#leaderboard tbody tr').first().textContent()).toContain('leader');
    expect(await column(page, 'runs-table', 'p50 (ms)')).toEqual(docs.map((d) => d.summary.latency_ms.p50));
    for (const id of ['latency-scatter', 'cost-scatter']) {
      expect(await page.locator(`svg[data-chart="${id}"] [data-mark="point"]`).count()).toBe(
        docs.filter((d) => d.summary.accuracy !== null).length,
      );
      expect(await page.locator(`svg[data-chart="${id}"] [data-mark="front"]`).count()).toBe(1);
    }
    // The Pareto front of accuracy against p50, computed here.
    const pts = docs.map((d) => ({ x: d.summary.latency_ms.p50!, y: d.summary.accuracy! }));
    const onFront = pts.map((p) => !pts.some((q) => q.x <= p.x && q.y >= p.y && (q.x < p.x || q.y > p.y)));
    const shown = await page.locator('#latency-scatter-table tbody tr td:last-child').allTextContents();
    expect(shown).toEqual(onFront.map((f) => (f ? 'yes' : 'no')));
    const keys = new Set(docs.flatMap((d) => Object.keys(d.summary.by_question)));
    expect(await page.locator('svg[data-chart="by-question-chart"] [data-mark="bar"]').count()).toBe(
      keys.size * docs.length,
    );
    await page.screenshot({ path: join(OUT, 'runs-compare.png'), fullPage: true });
  });

  it('runs compare A B --format html shows B against A, paired, with the text report’s numbers', async () => {
    const file = join(tmp, 'paired.html');
    const res = await runCliInProcess(
      ['runs', 'compare', ids[0]!, ids[1]!, '--format', 'html', '--out', file, '--store', store()],
      inFolder(tmp),
    );
    expect(res.code, res.stderr).toBe(0);
    const json = await runCliInProcess(
      ['runs', 'compare', ids[0]!, ids[1]!, '--json', '--store', store()],
      inFolder(tmp),
    );
    const doc = JSON.parse(json.stdout) as {
      paired: { metrics: Record<string, { difference: number; verdict: string }> };
    };
    const { page, errors } = await browser.open(file);
    expect(errors).toEqual([]);
    expect(await page.locator('#paired tbody tr').count()).toBe(5);
    const deltas = await column(page, 'paired', 'B - A');
    expect(deltas[0]).toBeCloseTo(docs[1]!.summary.accuracy! - docs[0]!.summary.accuracy!, 12);
    const verdict = doc.paired.metrics['accuracy']!.verdict;
    expect(await page.locator('#paired tbody tr').first().textContent()).toContain(
      verdict === 'within_noise' ? 'within noise' : verdict,
    );
  });

  it('refuses runs compare --format html with one run', async () => {
    const res = await runCliInProcess(
      ['runs', 'compare', ids[0]!, '--format', 'html', '--store', store()],
      inFolder(tmp),
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/two or more runs/);
  });
});

describe('offline --html reports', () => {
  const ROOT = join(import.meta.dirname, '..', '..', '..');
  const mod = (f: string) => join(ROOT, 'data', 'moderation', f);
  const inbox = (f: string) => join(ROOT, 'data', 'inbox', f);

  async function check(args: string[], name: string) {
    const file = join(tmp, `${name}.html`);
    const json = await runCliInProcess([...args, '--json'], inFolder(tmp));
    expect(json.code, json.stderr).toBe(0);
    const res = await runCliInProcess([...args, '--html', file], inFolder(tmp));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`HTML report written to ${file}`);
    const opened = await browser.open(file);
    expect(opened.errors).toEqual([]);
    expect(browser.blocked).toEqual([]);
    await opened.page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    return { page: opened.page, doc: JSON.parse(json.stdout) as Record<string, unknown> };
  }

  it('score --html: the reliability diagram and metrics of score --json', async () => {
    const { page, doc } = await check(
      ['score', '--dataset', mod('dataset.jsonl'), '--results', mod('results-careful-1.jsonl')],
      'score',
    );
    const bins = doc['reliability'] as { n: number; accuracy: number }[];
    expect(await page.locator('svg[data-chart="reliability"] [data-mark="point"]').count()).toBe(bins.length);
    expect(await column(page, 'reliability-table', 'n')).toEqual(bins.map((b) => b.n));
    expect(await column(page, 'metrics-table', 'accuracy')).toEqual([doc['accuracy']]);
    expect(await column(page, 'metrics-table', 'ECE')).toEqual([doc['ece']]);
  });

  it('score --html and compare --html: ROC and precision-recall curves, each with its table, AUC and AP of --json', async () => {
    const { page, doc } = await check(
      ['score', '--dataset', mod('dataset.jsonl'), '--results', mod('results-loud-1.jsonl')],
      'score-ranking',
    );
    const ranking = doc['ranking'] as { roc_auc: number; average_precision: number };
    expect(await column(page, 'ranking-table', 'ROC AUC')).toEqual([ranking.roc_auc]);
    expect(await column(page, 'ranking-table', 'average precision')).toEqual([ranking.average_precision]);
    for (const kind of ['roc', 'pr'])
      expect(await page.locator(`svg[data-chart="ranking-${kind}"] [data-mark="line"]`).count()).toBe(1);
    // The ROC runs from (0, 0) to (1, 1): its table's first and last points.
    const fpr = await column(page, 'ranking-roc-points', 'false positive rate');
    const tpr = await column(page, 'ranking-roc-points', 'true positive rate');
    expect([fpr[0], tpr[0], fpr.at(-1), tpr.at(-1)]).toEqual([0, 0, 1, 1]);
    expect(await page.locator('#ranking-pr-points tbody tr').count()).toBeGreaterThan(1);
    const files = ['results-careful-1.jsonl', 'results-loud-1.jsonl', 'results-budget-1.jsonl'].map(mod);
    const compared = await check(
      ['compare', '--dataset', mod('dataset.jsonl'), '--results', ...files],
      'compare-ranking',
    );
    expect(await compared.page.locator('svg[data-chart="ranking-roc"] [data-mark="line"]').count()).toBe(3);
    expect(await compared.page.locator('#ranking-table tbody tr').count()).toBe(3);
  });

  it('compare --html: one reliability line and one metrics row per model', async () => {
    const files = ['results-careful-1.jsonl', 'results-loud-1.jsonl', 'results-budget-1.jsonl'].map(mod);
    const { page, doc } = await check(['compare', '--dataset', mod('dataset.jsonl'), '--results', ...files], 'compare');
    const models = (doc['models'] ?? doc['rows']) as { accuracy: number; reliability: unknown[] }[];
    expect(await column(page, 'metrics-table', 'accuracy')).toEqual(models.map((m) => m.accuracy));
    const bins = models.reduce((n, m) => n + m.reliability.length, 0);
    expect(await page.locator('svg[data-chart="reliability"] [data-mark="point"]').count()).toBe(bins);
  });

  it('tune --html: P/R/F1 lines over 101 thresholds, default and tuned marked', async () => {
    const { page, doc } = await check(
      ['tune', '--dataset', mod('dataset.jsonl'), '--results', mod('results-budget-1.jsonl')],
      'tune',
    );
    expect(await page.locator('svg[data-chart="tune"] [data-mark="line"]').count()).toBe(3);
    expect(await page.locator('svg[data-chart="tune"] [data-mark="marker"]').count()).toBe(2);
    expect(await page.locator('#curve-table tbody tr').count()).toBe(101);
    const tuned = doc['tuned'] as { threshold: number; f1: number };
    const def = doc['default'] as { threshold: number; f1: number };
    expect(await column(page, 'tune-table', 'threshold')).toEqual(
      expect.arrayContaining([def.threshold, tuned.threshold]),
    );
    expect((await column(page, 'tune-table', 'F1')).slice(0, 2)).toEqual([def.f1, tuned.f1]);
  });

  it('actions --html: a gold→predicted matrix per model whose cells add up to the items', async () => {
    const { page, doc } = await check(
      [
        'actions',
        '--dataset',
        inbox('dataset.jsonl'),
        '--spec',
        inbox('spec.json'),
        '--results',
        inbox('results-fieldsharp-1.jsonl'),
        inbox('results-actionwise-1.jsonl'),
      ],
      'actions',
    );
    const models = doc['models'] as { model: string; items: number }[];
    expect(await page.locator('figure.confusion').count()).toBe(models.length);
    for (const m of models) {
      const cells = await page
        .locator(`figure.confusion[data-key="${m.model}"] [data-mark="cell"]`)
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
      expect(cells.reduce((a, b) => a + b, 0)).toBe(m.items);
    }
  });
});

describe('edge runs render without errors', () => {
  const answered = (predicted: number[][]) => ({
    status: 'answered' as const,
    latencyMs: 120,
    inputTokens: 900,
    predicted,
  });
  const gold = [
    { labelIndex: 0, probabilities: [0.9, 0.1] },
    { labelIndex: 1, probabilities: [0.2, 0.7, 0.1] },
    { labelIndex: 3, probabilities: [0, 0.05, 0.25, 0.7] },
  ];
  const runs = {
    empty: createRun([]),
    'all-failed': createRun(
      [1, 2, 3].map((n) => ({
        benchCase: securityCase(n, gold),
        outcome: {
          status: 'failed' as const,
          failure: { kind: 'timeout' as const, message: 'no answer in 30 s' },
          latencyMs: 30_000,
        },
      })),
    ),
    single: createRun([
      {
        benchCase: { ...securityCase(1, gold.slice(0, 1)), questions: securityCase(1, gold).questions.slice(0, 1) },
        outcome: answered([[0.8, 0.2]]),
      },
    ]),
  };

  for (const [name, run] of Object.entries(runs)) {
    it(`renders the ${name} run`, async () => {
      const file = join(tmp, `${name}.html`);
      writeFileSync(file, renderBenchHtml(run));
      const { page, errors } = await browser.open(file);
      expect(errors).toEqual([]);
      expect(browser.blocked).toEqual([]);
      expect(await page.locator('h1').textContent()).toMatch(/^Decision benchmark/);
      expect(await page.locator('svg[data-chart="reliability"] [data-mark="point"]').count()).toBe(
        run.summary.reliability.length,
      );
      if (run.cases.length > 0) {
        await page.getByLabel('wrong only').click();
        const wrong = run.cases
          .flatMap((c) => c.decisions)
          .filter((d) => d.outcome.status === 'failed' || !d.outcome.correct);
        expect(await visibleRows(page, 'trace')).toBe(wrong.length);
      }
      await page.screenshot({ path: join(OUT, `bench-${name}.png`), fullPage: true });
    });
  }
});

describe('probe --out writes an HTML report', () => {
  it('shows the failing check and probe, with the numbers of the JSON written beside it', async () => {
    const { startReferenceServer } = await import('../../../src/protocol/server/server.js');
    const server = await startReferenceServer({
      port: 0,
      violations: ['first-option-bias', 'output-tokens'],
      maxBodyBytes: 64 * 1024,
    });
    try {
      const out = join(tmp, 'probe');
      const res = await runCliInProcess(
        ['probe', '--base-url', server.url, '--cases', '10', '--no-store', '--out', out],
        inFolder(tmp),
      );
      expect(res.code, res.stderr).toBe(1);
      const files = readdirSync(out);
      const doc = JSON.parse(
        readFileSync(
          join(
            out,
            files.find((f) => f.endsWith('.json'))!,
          ),
          'utf8',
        ),
      ) as {
        robustness: { probes: { id: string; flip_rate: number; mean_tv: number }[] };
      };
      const { page, errors } = await browser.open(
        join(
          out,
          files.find((f) => f.endsWith('.html'))!,
        ),
      );
      expect(errors).toEqual([]);
      expect(browser.blocked).toEqual([]);
      expect(await page.locator('h3.bad').allTextContents()).toEqual(['✗ output-tokens-zero']);
      expect(await column(page, 'robustness', 'answers flipped')).toEqual(
        doc.robustness.probes.map((p) => p.flip_rate),
      );
      expect(await column(page, 'robustness', 'mean distance (TV)')).toEqual(
        doc.robustness.probes.map((p) => p.mean_tv),
      );
      const failed = await page.locator('#robustness tbody tr', { hasText: '✗ fail' }).allTextContents();
      expect(failed.map((t) => t.split('✗')[0])).toEqual(['option-order']);
      // "✓ pass" and "✗ fail" stay on one line, however narrow the table beside the chart is.
      for (const width of [1100, 700]) {
        await page.setViewportSize({ width, height: 900 });
        const lines = await page.evaluate(() =>
          [...document.querySelectorAll('#robustness td, #conformance td')]
            .filter((td) => /^[✓✗–] /.test(td.textContent ?? ''))
            .map((td) => {
              const range = document.createRange();
              range.selectNodeContents(td);
              return {
                text: td.textContent,
                lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
              };
            }),
        );
        expect(lines.length).toBe(26);
        expect(lines.filter((l) => l.lines !== 1)).toEqual([]);
      }
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.screenshot({ path: join(OUT, 'probe.png'), fullPage: true });
    } finally {
      await server.close();
    }
  });
});
