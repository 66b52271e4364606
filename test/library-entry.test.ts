import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_VERSION } from '../src/cli/version.js';

const ROOT = join(import.meta.dirname, '..');

describe('the package', () => {
  it('is importable by name from the built entry, with declarations', () => {
    const script = `
      import { summarizeBenchmark, scoreResultsFiles, startReferenceServer, runBenchmark } from 'decidekit';
      import { calibrate } from 'decidekit/statistics';
      import { createSystemOneClient } from 'decidekit/system-one';
      const c = calibrate([{ confidence: 0.95, hit: true }, { confidence: 0.95, hit: false }]);
      console.log(JSON.stringify({ ece: c.ece, fns: [summarizeBenchmark, scoreResultsFiles, startReferenceServer, createSystemOneClient, runBenchmark].map((f) => typeof f) }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }),
    ) as { ece: number; fns: string[] };
    expect(out.ece).toBeCloseTo(0.45, 12);
    expect(out.fns.every((t) => t === 'function')).toBe(true);
    expect(readFileSync(join(ROOT, 'dist', 'index.d.ts'), 'utf8')).toContain('summarizeBenchmark');
  });

  it('records the version package.json declares', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(TOOL_VERSION).toBe(pkg.version);
  });
});
