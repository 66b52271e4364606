/**
 * The first view of a big run costs what one page costs: `bench` keeps what the run page lists
 * (failed cases, confusion matrices, latencies, disagreements, where the trace's decisions
 * start) with the run when it finishes it, so the page reads none of the run's cases for
 * them, and a page of the trace reads only the cases from the nearest indexed place before
 * it. A run stored without them (before they were kept) shows the same page from its cases.
 * The cases read are counted on the SQLite adapter's own reads (a spy that calls through).
 * The real CLI in process (the embedded reference server, the bundled sample), a real store.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { SqliteCases } from '../../../src/store/sqlite/cases.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStoredRun } from '../../../src/app/runs/stored-runs.js';
import { analyzeRun } from '../../../src/app/bench/run-analysis.js';
import { RunPageCache, viewRunPage } from '../../../src/app/view/view-run-page.js';
import { SERVER_LINKS } from '../../../src/core/view/view-links.js';
import { TRACE_INDEX_EVERY } from '../../../src/core/bench/run-listings.js';
import type { CaseResult } from '../../../src/core/typed-decisions/case-result.js';

const dir = tempFolderRemovedAfterAll('decidekit-first-view-');
const store = join(dir, 'runs.sqlite');
const askedBy = { command: 'view' } as const;
let id = '';

const original = SqliteCases.prototype.iterate;
const iterate = vi.spyOn(SqliteCases.prototype, 'iterate');
let casesRead = 0;
afterAll(() => iterate.mockRestore());

beforeAll(async () => {
  const r = await runCliInProcess(['bench', '--model', 'heuristic', '--store', store], {
    cwd: dir,
    env: { XDG_DATA_HOME: join(dir, 'data') },
  });
  expect(r.code, r.stderr).toBe(0);
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    id = s.runs.list()[0]!.id;
  } finally {
    s.close();
  }
}, 60_000);

/** The run page as the server answers it the first time, with the cases it read from the store. */
function firstView(query = ''): { html: string; casesRead: number; from: number[] } {
  casesRead = 0;
  iterate.mockClear();
  const html = viewRunPage(store, id, new URLSearchParams(query), SERVER_LINKS, new RunPageCache());
  const from = iterate.mock.calls.map(([, options]) => options?.fromPosition ?? 0);
  return { html, casesRead, from };
}

/** Forgets what bench kept with the run, as a store written before it was kept has none. */
function dropKeptListings(): void {
  const db = new Database(store);
  try {
    db.prepare('DELETE FROM run_listings WHERE run_id = ?').run(id);
  } finally {
    db.close();
  }
}

describe('the first view of a run', () => {
  beforeAll(() => {
    // Calls through, counting each case read from the store.
    iterate.mockImplementation(function* (this: SqliteCases, runId, options) {
      for (const c of original.call(this, runId, options) as Iterable<CaseResult>) {
        casesRead++;
        yield c;
      }
    });
  });

  it('keeps what the run page lists with the run when bench finishes it, equal to one pass over its cases', () => {
    const s = openStore(store, { mustExist: true, readOnly: true });
    const kept = (() => {
      try {
        return s.runs.listings(id);
      } finally {
        s.close();
      }
    })();
    expect(kept).not.toBeNull();
    const opened = openStoredRun(store, id, askedBy);
    expect(opened.run.listings).toBeUndefined();
    const fromCases = analyzeRun(opened.run, {}, { intervals: false, listings: true }).run.listings!;
    expect(kept).toEqual(fromCases);
    expect(kept!.traceIndex.decisionsBefore.length).toBeGreaterThan(1);
  });

  let pages: string[] = [];

  it('reads only the cases of the trace page it shows', () => {
    const first = firstView();
    expect(first.html).toContain('id="trace-section"');
    // 100 decisions of 5 questions a case, and the one read to see the page is full.
    expect(first.casesRead).toBeLessThanOrEqual(21);
    const last = firstView('page=5');
    expect(last.from).toEqual([expect.any(Number)]);
    expect(last.from[0]).toBeGreaterThan(0);
    expect(last.casesRead).toBeLessThanOrEqual(TRACE_INDEX_EVERY + 21);
    pages = [first.html, last.html, firstView('page=3').html, firstView('page=3&wrong=1').html];
  });

  it('shows the same pages for a run stored without them, read from its cases', () => {
    dropKeptListings();
    const again = ['', 'page=5', 'page=3', 'page=3&wrong=1'].map((q) => firstView(q));
    // One pass for what the page lists, then the trace page from the first case on.
    expect(again[0]!.casesRead).toBeGreaterThanOrEqual(100);
    expect(again.map((p) => p.html)).toEqual(pages);
  });
});
