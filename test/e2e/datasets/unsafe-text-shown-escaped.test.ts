/**
 * Text from input files and the command line reaches the terminal with its control,
 * zero-width and bidirectional characters shown as `\uXXXX`: a manifest's terminal escapes in
 * `dataset info` / `verify`, a name echoed in an error, a label split by U+200B in `runs show`,
 * a model name from a results file in `score`, `compare` and `validate`.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { sampleDir } from '../../../src/datasets/typed-decisions/load-bench-dataset.js';

const dir = tempFolderRemovedAfterAll('decidekit-unsafe-text-');
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: dir } });
/** Raw characters that must never reach the terminal from input. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/;

describe('text from input shown on the terminal', () => {
  it('dataset info and verify show a manifest’s escapes and overrides as escapes', async () => {
    const copy = join(dir, 'hostile');
    cpSync(sampleDir(), copy, { recursive: true });
    const path = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    manifest.id = 'evil\u001b]0;pwned\u0007\u001b[2J';
    manifest.attribution = 'credit \u202egnp.exe';
    manifest.license = 'MIT\u009b31m';
    writeFileSync(path, JSON.stringify(manifest));
    for (const sub of ['info', 'verify']) {
      const r = await cli(['dataset', sub, 'hostile']);
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).not.toMatch(UNSAFE);
      expect(r.stdout, sub).toContain('evil\\u001b]0;pwned\\u0007\\u001b[2J');
    }
    expect((await cli(['dataset', 'info', 'hostile'])).stdout).toContain('credit \\u202egnp.exe');
  });

  it('dataset info and verify --json escape controls, overrides and zero-width characters', async () => {
    const copy = join(dir, 'hostile-json');
    cpSync(sampleDir(), copy, { recursive: true });
    const path = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    manifest.id = 'evil \u202egnp.exe \u200bzw \u009b31m \u007f \u2028';
    writeFileSync(path, JSON.stringify(manifest));
    for (const sub of ['info', 'verify']) {
      const r = await cli(['dataset', sub, 'hostile-json', '--json']);
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).not.toMatch(UNSAFE);
      expect(r.stdout, sub).toContain('\\u202e');
      expect(JSON.stringify(JSON.parse(r.stdout))).toContain(JSON.stringify(manifest.id).slice(1, -1));
    }
  });

  it('an error echoing a file name shows its override as an escape', async () => {
    const r = await cli(['score', '--dataset', 'cases\u202elsnoj.jsonl', '--results', 'r.jsonl']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(UNSAFE);
    expect(r.stderr).toContain('cases\\u202elsnoj.jsonl');
  });

  it('runs show shows a label split by a zero-width space as an escape', async () => {
    const label = 'sk-live-abc\u200bdef\u007f';
    const bench = await cli(['bench', '--limit', '2', '--store', 'runs.db', '--label', label, '--json']);
    expect(bench.code).toBe(0);
    const show = await cli(['runs', 'show', JSON.parse(bench.stdout).id, '--store', 'runs.db']);
    expect(show.code).toBe(0);
    expect(show.stdout).not.toMatch(UNSAFE);
    expect(show.stdout).toContain('sk-live-abc\\u200bdef\\u007f');
    expect(bench.stderr).not.toMatch(UNSAFE);
    const report = await cli(['report', JSON.parse(bench.stdout).id, '--store', 'runs.db']);
    expect(report.code).toBe(0);
    expect(report.stdout).not.toMatch(UNSAFE);
  });

  it('score, compare and validate show a results file’s model name with its escapes shown', async () => {
    writeFileSync(
      join(dir, 'cases.jsonl'),
      '{"id":"yn-1","kind":"yes_no","correct":true}\n{"id":"yn-2","kind":"yes_no","correct":false}\n',
    );
    const model = 'm\u202eabc\u001b[31mred\u007fdel\u2028ls\u2029ps';
    writeFileSync(
      join(dir, 'results.jsonl'),
      `${JSON.stringify({ case_id: 'yn-1', model, decision: { probability: 0.7 } })}\n` +
        `${JSON.stringify({ case_id: 'yn-2', model, decision: { probability: 0.4 } })}\n`,
    );
    for (const command of ['score', 'compare', 'validate', 'tune']) {
      const r = await cli([command, '--dataset', join(dir, 'cases.jsonl'), '--results', join(dir, 'results.jsonl')]);
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout, command).not.toMatch(UNSAFE);
      expect(r.stdout, command).toContain('m\\u202eabc\\u001b[31mred');
    }
  });
});
