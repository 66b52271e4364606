/**
 * End-to-end: a map written by `calibrate --out` applied by `score --calibration` (and
 * `compare`), and maps that do not fit refused. The loud-1 answers are over-confident by
 * design (0.99 on every yes/no, 0.98 on every choice, about one in six wrong).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MODERATION = join(ROOT, 'data', 'moderation');
const DATASET = join(MODERATION, 'dataset.jsonl');
const LOUD = join(MODERATION, 'results-loud-1.jsonl');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-calibrate-');

function cli(...args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: ROOT });
}

describe('a calibration map applied by score', () => {
  it('writes a map that score applies, giving the fit on all the data', async () => {
    const map = join(tmp, 'map.json');
    const c = await cli('calibrate', '--dataset', DATASET, '--results', LOUD, '--by', 'type', '--out', map, '--json');
    expect(c.code).toBe(0);
    expect(c.stderr).toBe(`calibration map written to ${map}\n`);
    const fitted = (JSON.parse(c.stdout) as { overall: { fitted: Record<string, number> } }).overall.fitted;
    const file = JSON.parse(await readFile(map, 'utf8')) as Record<string, unknown>;
    expect(file['format']).toBe('decidekit-calibration-map');
    expect(file['version']).toBe(1);
    expect(file['by']).toBe('type');
    expect(file['data_sha256']).toMatch(/^[0-9a-f]{64}$/);

    const s = await cli('score', '--dataset', DATASET, '--results', LOUD, '--calibration', map, '--json');
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    const scored = JSON.parse(s.stdout) as Record<string, unknown>;
    // The bootstrap sums in fixed point (multiples of 2^-32): equal to nine digits.
    expect(scored['accuracy']).toBeCloseTo(fitted['accuracy']!, 9);
    expect(scored['brier']).toBeCloseTo(fitted['brier']!, 9);
    expect(scored['log_loss']).toBeCloseTo(fitted['log_loss']!, 9);
    expect(scored['ece']).toBeCloseTo(fitted['ece']!, 9);
    expect(scored['calibration']).toMatchObject({ path: map, method: 'temperature', by: 'type' });
    const text = await cli('score', '--dataset', DATASET, '--results', LOUD, '--calibration', map);
    expect(text.stdout).toContain('recalibrated');
  });

  it('applies one map to every model compare compares, and says so', async () => {
    const map = join(tmp, 'compare-map.json');
    await cli('calibrate', '--dataset', DATASET, '--results', LOUD, '--out', map);
    const careful = join(MODERATION, 'results-careful-1.jsonl');
    const plain = await cli('compare', '--dataset', DATASET, '--results', careful, LOUD, '--json');
    const r = await cli('compare', '--dataset', DATASET, '--results', careful, LOUD, '--calibration', map, '--json');
    expect(r.code).toBe(0);
    const models = (JSON.parse(r.stdout) as { models: Record<string, unknown>[] }).models;
    const before = (JSON.parse(plain.stdout) as { models: Record<string, unknown>[] }).models;
    expect(models.map((m) => m['calibration'])).toEqual([
      expect.objectContaining({ path: map, recalibrated: true }),
      expect.objectContaining({ path: map, recalibrated: true }),
    ]);
    // T > 1 softens loud-1's answers: its log loss falls, its accuracy stays.
    expect(models[1]!['log_loss']).toBeLessThan(before[1]!['log_loss'] as number);
    expect(models[1]!['accuracy']).toBe(before[1]!['accuracy']);
    const text = await cli('compare', '--dataset', DATASET, '--results', careful, LOUD, '--calibration', map);
    expect(text.stdout).toContain(`Every model recalibrated with ${map}`);
  });

  it('refuses a map whose groups do not match the data, naming the difference', async () => {
    const map = join(tmp, 'yes-no-only.json');
    await cli('calibrate', '--dataset', DATASET, '--results', LOUD, '--by', 'type', '--out', map);
    const doc = JSON.parse(await readFile(map, 'utf8')) as { groups: { key: string }[] };
    doc.groups = doc.groups.filter((g) => g.key === 'yes_no');
    await writeFile(map, JSON.stringify(doc));
    const s = await cli('score', '--dataset', DATASET, '--results', LOUD, '--calibration', map);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain(`calibration map ${map} does not fit`);
    expect(s.stderr).toContain('question type "choice"');
    expect(s.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('refuses a file that is not a map, naming the file and field', async () => {
    const bad = join(tmp, 'bad-map.json');
    await writeFile(
      bad,
      JSON.stringify({
        format: 'decidekit-calibration-map',
        version: 1,
        method: 'temperature',
        by: 'all',
        source: 'offline',
        probability_floor: 1e-15,
        data_sha256: 'a'.repeat(64),
        groups: [{ key: 'all', decisions: 3, parameters: { temperature: -1 } }],
      }),
    );
    const s = await cli('score', '--dataset', DATASET, '--results', LOUD, '--calibration', bad);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain(`${bad}: groups[0].parameters.temperature: expected a positive number, got -1`);
  });
});
