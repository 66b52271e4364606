/**
 * Every option that reads a file refuses what is not a regular file, at once and in words:
 * a FIFO with no writer (opening one blocks for ever, in a thread no signal interrupts) and
 * a device that never ends (`/dev/zero`). The real built CLI runs as a process, so a hang
 * is a kill after a deadline rather than a stuck test worker.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { CAREFUL_RESULTS, DATA, MODERATION_DATASET, inboxActionsArgv } from '../../support/offline-samples.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-not-files-');
const fifo = join(tmp, 'pipe.jsonl');
execFileSync('mkfifo', [fifo]);

const DEADLINE_MS = 20_000;

function decidekit(args: readonly string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: tmp },
    cwd: tmp,
    timeout: DEADLINE_MS,
    killSignal: 'SIGKILL',
  });
  // validate reports a file's problems on stdout, the other commands on stderr.
  return { code: r.status, signal: r.signal, said: r.stdout + r.stderr, stderr: r.stderr };
}

const SCORE_DATASET = ['--dataset', MODERATION_DATASET];
const SCORE_RESULTS = ['--results', CAREFUL_RESULTS];

const CASES: readonly [string, readonly string[]][] = [
  ['score --dataset', ['score', '--dataset', fifo, ...SCORE_RESULTS]],
  ['score --results', ['score', ...SCORE_DATASET, '--results', fifo]],
  ['score --engine duckdb --results', ['score', '--engine', 'duckdb', ...SCORE_DATASET, '--results', fifo]],
  ['tune --results', ['tune', ...SCORE_DATASET, '--results', fifo]],
  ['compare --results', ['compare', ...SCORE_DATASET, '--results', fifo]],
  ['validate --results', ['validate', ...SCORE_DATASET, '--results', fifo]],
  ['actions --spec', inboxActionsArgv(undefined, fifo)],
  ['bench --dataset', ['bench', '--dataset', fifo, '--no-store', '--limit', '2']],
  ['audit --checks', ['audit', '--transcripts', join(DATA, 'audits', 'transcripts.jsonl'), '--checks', fifo]],
];

describe('input files that are not regular files', () => {
  for (const [name, argv] of CASES) {
    it(`${name} refuses a FIFO with no writer in words, without waiting`, () => {
      const r = decidekit(argv);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.said).toContain(`${fifo} (a FIFO (named pipe), not a regular file)`);
      expect(r.said.match(/named pipe/g)).toHaveLength(1);
      expect(r.said).not.toContain('internal error');
    });
  }

  it('live --record refuses a FIFO rather than wait for a reader', () => {
    const r = decidekit(['live', '--json', '--record', fifo]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--record ${fifo}: a FIFO (named pipe), not a regular file: it is never replaced`);
  });

  it('serve --prior-file refuses a FIFO as a usage error, without listening or waiting', () => {
    const r = decidekit(['serve', '--port', '0', '--prior-file', fifo]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--prior-file ${fifo}: a FIFO (named pipe), not a regular file`);
    expect(r.stderr.match(/named pipe/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('listening');
    expect(r.stderr).not.toContain('internal error');
  });

  it('bench and dataset verify refuse a FIFO or a link to /dev/zero inside a dataset folder, not as a truncated file', () => {
    const folder = join(tmp, 'sample-with-a-pipe');
    cpSync(join(ROOT, 'data', 'typed-decisions-sample'), folder, { recursive: true });
    const file = join(folder, 'test.jsonl');
    const makers: [string, () => void][] = [
      ['a FIFO (named pipe)', () => execFileSync('mkfifo', [file])],
      ...(existsSync('/dev/zero') ? [['a device', () => symlinkSync('/dev/zero', file)] as [string, () => void]] : []),
    ];
    for (const [what, make] of makers) {
      rmSync(file);
      make();
      for (const argv of [
        ['bench', '--dataset', folder, '--no-store', '--limit', '2'],
        ['dataset', 'verify', folder],
      ]) {
        const r = decidekit(argv);
        expect(r.signal, argv.join(' ')).toBeNull();
        expect(r.code, argv.join(' ')).toBe(1);
        expect(r.said).toContain(`cannot read file: ${file} (${what}, not a regular file)`);
        expect(r.said.match(/not a regular file/g)).toHaveLength(1);
        expect(r.said).not.toMatch(/truncated|internal error/);
      }
    }
  });

  it.runIf(existsSync('/dev/zero'))('score and bench refuse /dev/zero as a device, with no native stack', () => {
    for (const argv of [
      ['score', '--dataset', '/dev/zero', ...SCORE_RESULTS],
      ['bench', '--dataset', '/dev/zero', '--no-store', '--limit', '2'],
    ]) {
      const r = decidekit(argv);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('/dev/zero (a device, not a regular file)');
      expect(r.stderr).not.toMatch(/\n\s+at |FATAL|internal error/);
    }
  });
});
