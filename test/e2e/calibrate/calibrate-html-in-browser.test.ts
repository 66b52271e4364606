/// <reference lib="dom" />
/**
 * `calibrate --html` in a real browser (Debian chromium, headless, network blocked): the page
 * loads from file:// without console errors or requests, each group shows its reliability
 * before and after side by side, and the metric table's numbers equal the `--json` output.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../support/browser.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ARGS = [
  'calibrate',
  '--dataset',
  join(ROOT, 'data', 'moderation', 'dataset.jsonl'),
  '--results',
  join(ROOT, 'data', 'moderation', 'results-loud-1.jsonl'),
  '--by',
  'type',
];
const tmp = tempFolderRemovedAfterAll('dk-calibrate-html-');
let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('calibrate --html', () => {
  it('shows each group reliability before and after, with the numbers of --json', async () => {
    const file = join(tmp, 'calibrate.html');
    const html = await runCliInProcess([...ARGS, '--html', file], { cwd: ROOT });
    expect(html.code).toBe(0);
    expect(html.stderr).toBe(`HTML report written to ${file}\n`);
    const json = await runCliInProcess([...ARGS, '--json'], { cwd: ROOT });
    const doc = JSON.parse(json.stdout) as {
      groups: { key: string; held_out: { metrics: Record<string, { before: number; after: number }> } }[];
    };
    const { page, errors, requests } = await browser.open(file);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    for (const g of doc.groups) {
      const id = `g-${g.key.replace(/_/g, '-')}`;
      const sides = await page.evaluate(
        (sectionId) =>
          [...document.querySelectorAll(`#${sectionId} [data-side]`)].map((d) => ({
            side: d.getAttribute('data-side'),
            charts: d.querySelectorAll('svg').length,
          })),
        id,
      );
      expect(sides).toEqual([
        { side: 'before', charts: 1 },
        { side: 'after', charts: 1 },
      ]);
      const values = await page.evaluate(
        (tableId) =>
          [...(document.getElementById(tableId) as HTMLTableElement).tBodies[0]!.rows].map((r) => [
            r.cells[0]!.textContent,
            Number(r.cells[1]!.getAttribute('data-value')),
            Number(r.cells[3]!.getAttribute('data-value')),
          ]),
        `${id}-metrics`,
      );
      const m = g.held_out.metrics;
      expect(values).toEqual([
        ['Accuracy', m['accuracy']!.before, m['accuracy']!.after],
        ['Brier', m['brier']!.before, m['brier']!.after],
        ['Log loss', m['log_loss']!.before, m['log_loss']!.after],
        ['ECE', m['ece']!.before, m['ece']!.after],
      ]);
    }
    await page.close();
  });
});
