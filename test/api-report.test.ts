/**
 * The public surface is a visible diff: `api/decidekit.api.md` lists every exported name and
 * signature of every package entry, and this test fails when the source says otherwise (run
 * `npm run api` to write the file again, and read the diff before committing it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_REPORT_PATH, apiReport } from '../scripts/api-report.js';

describe('the API report', () => {
  it('matches what the package entries export', () => {
    const report = apiReport();
    expect(report).toContain(
      'function executeBench(plan: BenchPlan, asked: ExecuteBenchOptions): Promise<BenchOutcome>',
    );
    expect(report).toMatch(/^## decidekit\/statistics \(\d+ names\)$/m);
    expect(readFileSync(API_REPORT_PATH, 'utf8'), 'api/decidekit.api.md is stale: run npm run api').toBe(report);
  });
});
