import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../src/cli/test-support/in-process-cli.js';
import { MODERATION_DATASET, CAREFUL_RESULTS } from '../support/offline-samples.js';

const formats = readFileSync(new URL('../../docs/file-formats.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

/** What docs/file-formats.md says in the parentheses after each `ece_noise_floor`. */
function documentedShapes(): string[] {
  return [...formats.matchAll(/`ece_noise_floor` \(([^()]*)\)/g)].map((m) => m[1]!);
}

describe('ece_noise_floor in docs/file-formats.md', () => {
  it('names every key the JSON gives, wherever it lists them', async () => {
    const r = await runCliInProcess(['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--json'], {
      cwd: process.cwd(),
      env: {},
    });
    expect(r.code, r.stderr).toBe(0);
    const keys = Object.keys((JSON.parse(r.stdout) as { ece_noise_floor: object }).ece_noise_floor);
    expect(keys).toEqual(expect.arrayContaining(['p95_upper', 'tie']));
    const shapes = documentedShapes();
    expect(shapes).toHaveLength(2);
    for (const shape of shapes) for (const key of keys) expect(shape, key).toMatch(new RegExp(`\\b${key}\\b`));
  });
});
