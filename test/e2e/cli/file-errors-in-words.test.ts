/**
 * File errors are said in words ("it is a folder"), never as a raw code (EISDIR); an output
 * file option that names a folder writes the command's own file name inside it, and one that
 * can never be written is refused before any work, naming the option.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import {
  CAREFUL_RESULTS,
  DATA,
  MODERATION_DATASET,
  inboxActionsArgv,
  tempFolder,
} from '../../support/offline-samples.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const SCORE = ['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS];
const { dir: tmp, place } = tempFolder('file-errors');
const folder = join(tmp, 'a-folder');
mkdirSync(folder);
const plainFile = place('a-file', 'x');

describe('output files checked before the work', () => {
  const offline: [string, string[]][] = [
    ['score', SCORE],
    ['compare', ['compare', ...SCORE.slice(1)]],
    ['tune', ['tune', ...SCORE.slice(1)]],
    ['actions', inboxActionsArgv()],
  ];
  for (const [name, argv] of offline) {
    it(`${name} writes --html naming a folder as ${name}.html inside it`, async () => {
      const r = await runCliInProcess([...argv, '--html', folder]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`HTML report written to ${join(folder, `${name}.html`)}`);
      expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
      expect(readdirSync(folder)).toContain(`${name}.html`);
    });
  }

  it('refuses --html under a plain file', async () => {
    const r = await runCliInProcess([...SCORE, '--html', join(plainFile, 'r.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--html');
    expect(r.stderr).toContain('a part of the path is a file, not a folder');
    expect(r.stdout).toBe('');
  });

  it('refuses --html naming a symbolic link or a FIFO, before scoring, and leaves it in place', async () => {
    const link = join(tmp, 'link.html');
    symlinkSync(plainFile, link);
    const fifo = join(tmp, 'pipe.html');
    execFileSync('mkfifo', [fifo]);
    for (const [path, what] of [
      [link, 'a symbolic link'],
      [fifo, 'a FIFO (named pipe)'],
    ] as const) {
      const r = await runCliInProcess([...SCORE, '--html', path]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--html ${path}: ${what}, not a regular file: it is never replaced`);
      expect(r.stdout).toBe('');
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readFileSync(plainFile, 'utf8')).toBe('x');
  });

  it('still writes --html to a new file in a new folder', async () => {
    const r = await runCliInProcess([...SCORE, '--html', join(tmp, 'new', 'r.html')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('HTML report written to');
  });

  it('runs compare --format html refuses --out under a file before it opens the store', async () => {
    const store = join(tmp, 'no-store.db');
    const r = await runCliInProcess([
      'runs',
      'compare',
      'a',
      'b',
      '--format',
      'html',
      '--out',
      join(plainFile, 'runs.html'),
      '--store',
      store,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${join(plainFile, 'runs.html')}: a part of the path is a file, not a folder`);
    expect(existsSync(store)).toBe(false);
  });

  it('live refuses --record under a file in words', async () => {
    const under = join(plainFile, 'record.jsonl');
    const r = await runCliInProcess(['live', '--record', under, '--base-url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--record ${under}: a part of the path is a file, not a folder`);
    expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
  });
});

describe('input files that are folders', () => {
  it('actions says the --spec is a folder', async () => {
    const r = await runCliInProcess(inboxActionsArgv(undefined, folder));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read action spec: ${folder} (it is a folder)`);
  });

  it('audit says the --checks file is a folder', async () => {
    const r = await runCliInProcess([
      'audit',
      '--transcripts',
      join(DATA, 'audits', 'transcripts.jsonl'),
      '--checks',
      folder,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`(it is a folder)`);
    expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
  });

  for (const engine of ['node', 'duckdb'])
    it(`score --engine ${engine} says the --dataset is a folder`, async () => {
      const r = await runCliInProcess(['score', '--engine', engine, '--dataset', folder, '--results', CAREFUL_RESULTS]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot read file: ${folder} (it is a folder)`);
    });
});
