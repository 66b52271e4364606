/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The HTML reports as a new user reads them, in a real browser (Debian chromium, headless,
 * network blocked): no chart mark drawn through a label, no two labels on top of each
 * other, units on the numbers, tables that fit their column, signed differences, readable
 * request examples, and the two-run comparison's per-question deltas and changed decisions.
 * Screenshots of what is measured go to test/.out/.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../support/browser.js';
import { inFolder, runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const OUT = join(import.meta.dirname, '..', '..', '.out');
const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('dk-html-layout-');
const store = join(tmp, 'runs.sqlite');
const ids: string[] = [];
let browser: TestBrowser;

interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly text: string;
}

/** The client boxes of the elements a selector finds, with their text. */
async function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: e.textContent ?? '' };
    }),
  );
}

/** Boxes that share area (a line of no width counts when it runs through the other box). */
function cross(a: Box, b: Box): boolean {
  return a.left <= b.right && b.left <= a.right && a.top < b.bottom && b.top < a.bottom;
}

function crossings(marks: readonly Box[], labels: readonly Box[]): string[] {
  return marks.flatMap((m) => labels.filter((l) => cross(m, l)).map((l) => `${m.text} through "${l.text}"`));
}

/** How many lines of text an element's content takes. */
async function lineCount(cell: Locator): Promise<number> {
  return cell.evaluate((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}

/** Whether every column of a table is seen: the table ends inside the page's content and no box around it hides a part. */
async function fitsItsColumn(page: Page, id: string): Promise<{ hidden: number; pastPage: number }> {
  return page.evaluate((tableId) => {
    const table = document.getElementById(tableId)!;
    // What a box around the table that scrolls or clips keeps out of sight.
    let hidden = 0;
    for (let el = table.parentElement; el !== null && el !== document.body; el = el.parentElement)
      if (getComputedStyle(el).overflowX !== 'visible') hidden = Math.max(hidden, el.scrollWidth - el.clientWidth);
    const body = document.body.getBoundingClientRect();
    const padding = parseFloat(getComputedStyle(document.body).paddingRight);
    return { hidden, pastPage: Math.max(0, table.getBoundingClientRect().right - (body.right - padding)) };
  }, id);
}

async function shot(page: Page, selector: string, name: string): Promise<void> {
  await page
    .locator(selector)
    .first()
    .screenshot({ path: join(OUT, `layout-${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchBrowser();
  for (const model of ['heuristic', 'prior', 'uniform']) {
    const res = await runCliInProcess(
      [
        'bench',
        '--model',
        model,
        '--limit',
        '40',
        '--parallel',
        '4',
        '--store',
        store,
        '--price-per-mtok',
        '0.5',
        '--json',
      ],
      inFolder(tmp),
    );
    expect(res.code, res.stderr).toBe(0);
    ids.push((JSON.parse(res.stdout) as { id: string }).id);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function html(args: string[], name: string): Promise<Page> {
  const file = join(tmp, `${name}.html`);
  const res = await runCliInProcess([...args, '--out', file, '--store', store], inFolder(tmp));
  expect(res.code, res.stderr).toBe(0);
  const { page, errors } = await browser.open(file);
  expect(errors).toEqual([]);
  expect(browser.blocked).toEqual([]);
  return page;
}

describe('a run’s report', () => {
  let page: Page;
  beforeAll(async () => {
    page = await html(['report', ids[0]!, '--format', 'html'], 'report');
  }, 60_000);

  it('draws each question’s majority tick clear of its accuracy label', async () => {
    const chart = 'svg[data-chart="by-question-chart"]';
    const ticks = await boxes(page, `${chart} [data-mark="reference"]`);
    const labels = await boxes(page, `${chart} text.value`);
    expect(ticks.length).toBeGreaterThan(3);
    expect(labels.length).toBe(ticks.length);
    await shot(page, chart, 'by-question');
    expect(crossings(ticks, labels)).toEqual([]);
  });

  it('draws the p50 and p95 lines clear of their labels, which say the unit', async () => {
    const chart = 'svg[data-chart="latency"]';
    const lines = await boxes(page, `${chart} [data-mark="marker"]`);
    const labels = await boxes(page, `${chart} text.value`);
    await shot(page, chart, 'latency');
    expect(labels.map((l) => l.text)).toEqual([
      expect.stringMatching(/^p50 [\d.,]+ m?s$/),
      expect.stringMatching(/^p95 [\d.,]+ m?s$/),
    ]);
    expect(crossings(lines, labels)).toEqual([]);
  });

  it('keeps the most confident disagreements inside the page’s column, on a narrower window too', async () => {
    await page.setViewportSize({ width: 900, height: 900 });
    await shot(page, '#disagreements-table', 'disagreements');
    expect(await fitsItsColumn(page, 'disagreements-table')).toEqual({ hidden: 0, pastPage: 0 });
  });
});

describe('runs compare A B C --format html', () => {
  let page: Page;
  beforeAll(async () => {
    page = await html(['runs', 'compare', ...ids, '--format', 'html'], 'compare-3');
  }, 60_000);

  it('colours each run’s swatch in the header as its charts do', async () => {
    const colours = await page.evaluate(() => {
      const swatches = [...document.querySelectorAll('header .meta [class^="s"]')];
      const legend = [...document.querySelectorAll('.legend')][0]!;
      return {
        swatches: swatches.map((s) => getComputedStyle(s).color),
        legend: [...legend.querySelectorAll('.sw')].map((s) => getComputedStyle(s).backgroundColor),
        text: getComputedStyle(document.querySelector('header .meta')!).color,
      };
    });
    await shot(page, 'header', 'compare-header');
    expect(colours.swatches).toHaveLength(3);
    expect(colours.swatches).toEqual(colours.legend);
    expect(colours.swatches).not.toContain(colours.text);
  });

  it('labels each run’s p50 in its colour, no two labels on top of each other or crossed by a line', async () => {
    const chart = 'svg[data-chart="latency"]';
    const labels = await boxes(page, `${chart} text.value`);
    const lines = await boxes(page, `${chart} [data-mark="marker"]`);
    await shot(page, chart, 'compare-latency');
    expect(labels).toHaveLength(3);
    const overlaps = labels.flatMap((a, i) =>
      labels
        .slice(i + 1)
        .filter((b) => cross(a, b))
        .map((b) => `${a.text} / ${b.text}`),
    );
    expect(overlaps).toEqual([]);
    expect(crossings(lines, labels)).toEqual([]);
    const fills = await page
      .locator(`${chart} text.value`)
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).fill));
    expect(new Set(fills).size).toBe(3);
  });

  it('keeps each leaderboard interval on one line, the table whole', async () => {
    const cells = page.locator('#leaderboard tbody .ci');
    expect(await cells.count()).toBeGreaterThan(5);
    await shot(page, '#leaderboard', 'leaderboard');
    const wrapped: string[] = [];
    for (const cell of await cells.all()) if ((await lineCount(cell)) !== 1) wrapped.push(await cell.innerText());
    expect(wrapped).toEqual([]);
    expect((await fitsItsColumn(page, 'leaderboard')).pastPage).toBe(0);
  });

  it('shows every column of the reliability table', async () => {
    await shot(page, '#reliability-table', 'compare-reliability-table');
    expect((await fitsItsColumn(page, 'reliability-table')).hidden).toBe(0);
  });

  it('prints the cost axis in a readable unit', async () => {
    const chart = 'svg[data-chart="cost-scatter"]';
    await shot(page, chart, 'cost-scatter');
    const ticks = await page.locator(`${chart} text.tick`).allTextContents();
    expect(ticks.length).toBeGreaterThan(3);
    // A few significant digits, not a row of zeros after the point.
    for (const t of ticks) expect(t).toMatch(/^\$?\d{1,3}(\.\d{1,2})?$|^\d+%$/);
    const label = await page.locator(`${chart} text.label`).first().textContent();
    expect(label).toMatch(/USD/);
  });
});

describe('runs compare A B --format html', () => {
  it('lists the per-question deltas and the decisions whose correctness changed, as --json does', async () => {
    const page = await html(['runs', 'compare', ids[0]!, ids[1]!, '--format', 'html'], 'compare-2');
    const json = await runCliInProcess(
      ['runs', 'compare', ids[0]!, ids[1]!, '--json', '--store', store],
      inFolder(tmp),
    );
    const doc = JSON.parse(json.stdout) as {
      by_question: { key: string; accuracy: { delta: number | null } }[];
      changed: { case_id: string; question_id: string; after: { correct: boolean } }[];
    };
    expect(doc.changed.length).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUT, 'layout-compare-2.png'), fullPage: true });
    const deltas = await page.locator('#question-deltas').evaluate((t) => {
      const table = t as HTMLTableElement;
      const index = [...table.tHead!.rows[0]!.cells].findIndex((c) => c.textContent === 'accuracy B - A');
      return [...table.tBodies[0]!.rows].map((r) => {
        const v = r.cells[index]!.getAttribute('data-value');
        return [r.cells[0]!.textContent, v === '' || v === null ? null : Number(v)];
      });
    });
    expect(deltas).toEqual(doc.by_question.map((q) => [q.key, q.accuracy.delta]));
    const changed = await page
      .locator('#changed tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-case'), tr.getAttribute('data-question'), tr.children[2]!.textContent]),
      );
    expect(changed).toEqual(doc.changed.map((d) => [d.case_id, d.question_id, d.after.correct ? 'fixed' : 'broken']));
  });
});

describe('offline compare --html', () => {
  it('signs the differences against the baseline', async () => {
    const mod = (f: string) => join(ROOT, 'data', 'moderation', f);
    const file = join(tmp, 'offline-compare.html');
    const res = await runCliInProcess(
      [
        'compare',
        '--dataset',
        mod('dataset.jsonl'),
        '--results',
        mod('results-careful-1.jsonl'),
        mod('results-loud-1.jsonl'),
        '--html',
        file,
      ],
      inFolder(tmp),
    );
    expect(res.code, res.stderr).toBe(0);
    const { page } = await browser.open(file);
    const cells = await page.locator('table[id^="paired-"]').evaluateAll((tables) =>
      tables.flatMap((t) => {
        const table = t as HTMLTableElement;
        const index = [...table.tHead!.rows[0]!.cells].findIndex((c) => c.textContent === 'difference');
        return [...table.tBodies[0]!.rows].map((r) => ({
          text: r.cells[index]!.textContent ?? '',
          value: Number(r.cells[index]!.getAttribute('data-value')),
        }));
      }),
    );
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(c.text).toMatch(c.value > 0 ? /^\+/ : c.value < 0 ? /^-/ : /^[+]?0/);
    expect(cells.some((c) => c.value > 0)).toBe(true);
    // And the models' reliability bins show whole.
    await shot(page, '#reliability-table', 'offline-reliability-table');
    expect((await fitsItsColumn(page, 'reliability-table')).hidden).toBe(0);
  });
});

describe('probe --out', () => {
  it('shows the example request as indented JSON', async () => {
    const server = await startReferenceServer({ port: 0, violations: ['output-tokens'] });
    try {
      const out = join(tmp, 'probe');
      const res = await runCliInProcess(
        ['probe', '--base-url', server.url, '--cases', '5', '--no-store', '--out', out],
        inFolder(tmp),
      );
      expect(res.code, res.stderr).toBe(1);
      const { page } = await browser.open(
        join(
          out,
          readdirSync(out).find((f) => f.endsWith('.html'))!,
        ),
      );
      const requests = await page.locator('pre.request').allTextContents();
      expect(requests.length).toBeGreaterThan(0);
      await shot(page, 'pre.request', 'probe-request');
      const written = JSON.parse(
        readFileSync(
          join(
            out,
            readdirSync(out).find((f) => f.endsWith('.json'))!,
          ),
          'utf8',
        ),
      ) as {
        conformance: { checks: { examples: { request: string }[] }[] };
      };
      const given = written.conformance.checks.flatMap((k) => k.examples.map((e) => e.request));
      expect(requests.length).toBe(given.length);
      requests.forEach((shown, i) => {
        expect(shown).toMatch(/^\{\n {2}"/);
        expect(JSON.parse(shown)).toEqual(JSON.parse(given[i]!));
      });
    } finally {
      await server.close();
    }
  });
});
