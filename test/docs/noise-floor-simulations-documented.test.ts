import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOISE_SIMULATIONS } from '../../src/core/stats/noise-floor.js';
import { runCliInProcess } from '../../src/cli/test-support/in-process-cli.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('the documented number of ECE noise-floor simulations', () => {
  it('is the code default wherever the README and docs/scoring.md state one', () => {
    const shown = DEFAULT_NOISE_SIMULATIONS.toLocaleString('en-US');
    for (const path of ['README.md', 'docs/scoring.md']) {
      const stated = [...read(path).matchAll(/([\d,]+) seeded simulations/g)].map((m) => m[1]);
      expect(stated.length, path).toBeGreaterThan(0);
      expect(new Set(stated), path).toEqual(new Set([shown]));
    }
  });
});

describe('runs gate --help', () => {
  it('says which runs are gated: every case sent, failures counting as misses in accuracy', async () => {
    const r = await runCliInProcess(['runs', 'gate', '--help'], { cwd: process.cwd(), env: {} });
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).not.toContain('and be complete');
    expect(help).toContain('have sent every case');
    expect(help).toContain('a failed decision counts as a miss in accuracy');
  });
});
