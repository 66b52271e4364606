/**
 * Every output path follows one rule (docs/file-formats.md, "Output paths"): a folder, or a
 * path ending in "/", gets the command's own file name and missing folders are made; only a
 * regular file is ever replaced; the path is checked before the work, a usage error (exit 2)
 * in words; temporary files of a process killed outright go at the next write. The real CLI
 * in process, a real SQLite store, FIFOs and links made in a temp folder (never the real /dev).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { CAREFUL_RESULTS, MODERATION_DATASET } from '../../support/offline-samples.js';
import { whileUnwritable } from '../../support/unwritable.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const tmp = tempFolderRemovedAfterAll('decidekit-output-rule-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: tmp };
let runId: string;
let otherId: string;

const cli = (argv: readonly string[]) => runCliInProcess(argv, { env });

async function benchRun(): Promise<string> {
  const r = await cli(['bench', '--limit', '3', '--store', store]);
  expect(r.code, r.stderr).toBe(0);
  return /run (\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(r.stderr + r.stdout)![1]!;
}

beforeAll(async () => {
  runId = await benchRun();
  otherId = await benchRun();
});

/** A usage error before any work: exit 2, the option and path named, in words, nothing on stdout. */
function expectRefused(r: { code: number; stdout: string; stderr: string }, start: string, why: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`${start}: ${why}`);
  expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stdout).toBe('');
}

describe('a path ending in "/" names a folder, made when missing', () => {
  it("gets the command's own file name, for every file output", async () => {
    const base = join(tmp, 'new');
    const cases: [string[], string][] = [
      [['report', runId, '--store', store, '--out', `${base}/report/`], join(base, 'report', `${runId}.txt`)],
      [
        ['runs', 'report', runId, '--format', 'json', '--store', store, '--out', `${base}/json/`],
        join(base, 'json', `${runId}.json`),
      ],
      [
        ['runs', 'export', runId, '--format', 'csv', '--store', store, '--out', `${base}/csv/`],
        join(base, 'csv', `${runId}.csv`),
      ],
      [
        ['runs', 'compare', runId, otherId, '--format', 'html', '--store', store, '--out', `${base}/compare/`],
        join(base, 'compare', 'runs-compare.html'),
      ],
      [
        ['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html', `${base}/score/`],
        join(base, 'score', 'score.html'),
      ],
    ];
    for (const [argv, file] of cases) {
      const r = await cli(argv);
      expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 0 });
      expect(lstatSync(file).isFile(), file).toBe(true);
      expect(readdirSync(join(file, '..'))).toEqual([file.split('/').pop()]);
    }
  });

  it('an existing folder given without the slash is the same folder', async () => {
    const folder = join(tmp, 'existing');
    mkdirSync(folder);
    const r = await cli(['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html', folder]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(folder)).toEqual(['score.html']);
  });
});

describe('a missing folder is made only when the file is written', () => {
  it('leaves no folder behind when the command is refused after the path is checked', async () => {
    const base = join(tmp, 'refused');
    mkdirSync(base);
    const folder = join(base, 'n3');
    const fewer = await cli(['bench', '--limit', '2', '--store', store]);
    const fewerId = /run (\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(fewer.stderr)![1]!;
    const cases: [string[], number][] = [
      // Runs of different work without --force: refused once both are read.
      [['runs', 'compare', runId, fewerId, '--format', 'html', '--store', store, '--out', `${folder}/`], 1],
      // The same run twice: a usage error.
      [['runs', 'compare', runId, runId, '--format', 'html', '--store', store, '--out', `${folder}/`], 2],
      // An unknown run: found only once the store is read.
      [['report', 'no-such-run', '--store', store, '--out', `${folder}/`], 1],
      [['view', '--bundle', `${folder}/`, '--store', store, 'no-such-run'], 1],
      [['runs', 'export', 'no-such-run', '--format', 'csv', '--store', store, '--out', join(folder, 'x.csv')], 1],
    ];
    for (const [argv, code] of cases) {
      const r = await cli(argv);
      expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code });
      expect(readdirSync(base), argv.join(' ')).toEqual([]);
    }
    const made = await cli(['view', '--bundle', `${folder}/`, '--store', store, runId]);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(folder)).toContain('index.html');
  });

  it('refuses a missing folder whose nearest existing folder takes no new file, before the work', async () => {
    const parent = join(tmp, 'locked-parent');
    mkdirSync(parent);
    const checked = await whileUnwritable(parent, 'folder', async () => {
      const out = join(parent, 'a', 'b');
      const r = await cli(['report', runId, '--store', store, '--out', `${out}/`]);
      expectRefused(
        r,
        `--out ${out}/`,
        `cannot be created: the folder ${parent} takes no new file (permission denied)`,
      );
    });
    expect(checked).toBe(true);
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe('only a regular file is ever replaced', () => {
  it('refuses a FIFO and a symbolic link at report and runs export --out, before reading the run', async () => {
    const target = join(tmp, 'kept.txt');
    writeFileSync(target, 'kept\n');
    const link = join(tmp, 'link.md');
    symlinkSync(target, link);
    const fifo = join(tmp, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    for (const [path, what] of [
      [link, 'a symbolic link'],
      [fifo, 'a FIFO (named pipe)'],
    ] as const) {
      for (const argv of [
        ['report', runId, '--out', path],
        ['runs', 'export', runId, '--format', 'csv', '--out', path],
        // An unknown run: the path is refused before the store is read.
        ['runs', 'report', 'no-such-run', '--out', path],
      ]) {
        const r = await cli([...argv, '--store', store]);
        expectRefused(r, `--out ${path}`, `${what}, not a regular file: it is never replaced`);
      }
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
  });

  it('refuses a device under /dev before anything is written', async () => {
    // Refused by its path alone: nothing is opened, so the real device is never touched.
    for (const argv of [
      ['report', runId, '--out', '/dev/null'],
      ['runs', 'export', runId, '--format', 'csv', '--out', '/dev/full'],
    ]) {
      const r = await cli([...argv, '--store', store]);
      expectRefused(r, `--out ${argv.at(-1)}`, 'cannot be under /dev, a kernel file system');
    }
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('refuses a FIFO at live --record before anything is asked', async () => {
    const fifo = join(tmp, 'record.jsonl');
    execFileSync('mkfifo', [fifo]);
    const r = await cli(['live', '--record', fifo, '--base-url', 'http://127.0.0.1:1']);
    expectRefused(r, `--record ${fifo}`, 'a FIFO (named pipe), not a regular file');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});

describe('live --record never writes into the dataset it reads', () => {
  const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'data', 'typed-decisions-sample');

  it('refuses each file of a dataset folder, and of the bundled sample, before anything is asked', async () => {
    const copy = join(tmp, 'tds');
    cpSync(SAMPLE, copy, { recursive: true });
    const cases: [string[], string][] = [
      [['--dataset', copy], join(copy, 'test.jsonl')],
      [['--dataset', copy], join(copy, 'manifest.json')],
      [[], join(SAMPLE, 'test.jsonl')],
      [[], join(SAMPLE, 'manifest.json')],
    ];
    for (const [dataset, record] of cases) {
      const before = readFileSync(record);
      const r = await cli(['live', ...dataset, '--record', record, '--base-url', 'http://127.0.0.1:1']);
      expectRefused(r, `--record ${record}`, 'is the same file as');
      expect(r.stderr).toContain('which the command reads');
      expect(readFileSync(record).equals(before), record).toBe(true);
    }
  });
});

describe('paths that can never be written, said in words before the work', () => {
  const file = join(tmp, 'a-file');
  const long = 'n'.repeat(300);
  beforeAll(() => writeFileSync(file, 'x'));

  it('refuses an output under a file or with a name over 255 bytes, for every output option', async () => {
    for (const [flag, argv] of [
      ['--out', ['report', runId, '--store', store, '--out']],
      ['--out', ['runs', 'export', runId, '--format', 'csv', '--store', store, '--out']],
      ['--out', ['runs', 'compare', runId, otherId, '--format', 'html', '--store', store, '--out']],
      ['--out', ['bench', '--limit', '1', '--no-store', '--out']],
      ['--html', ['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html']],
    ] as const) {
      const under = join(file, 'r.html');
      expectRefused(await cli([...argv, under]), `${flag} ${under}`, 'a part of the path is a file, not a folder');
      const tooLong = join(tmp, `${long}.html`);
      expectRefused(await cli([...argv, tooLong]), `${flag} ${tooLong}`, 'a name in the path is longer than 255 bytes');
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('refuses --html into a folder that takes no new file before scoring, with nothing printed', async () => {
    const folder = join(tmp, 'read-only');
    mkdirSync(folder);
    const checked = await whileUnwritable(folder, 'folder', async () => {
      const html = join(folder, 'r.html');
      const r = await cli(['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html', html]);
      expectRefused(r, `--html ${html}`, `cannot write into the folder ${folder} (permission denied)`);
    });
    // The mode (or, as root, the immutable flag) must have made it refuse writes here.
    expect(checked).toBe(true);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses /proc as a kernel file system, without advice to create it', async () => {
    const r = await cli(['runs', 'export', runId, '--format', 'csv', '--out', '/proc/x.csv', '--store', store]);
    expectRefused(r, '--out /proc/x.csv', 'cannot be under /proc, a kernel file system');
    expect(r.stderr).not.toContain('create it first');
  });

  it('advises a folder for a path under /proc, and the advice pasted writes into that folder', async () => {
    const r = await cli([
      'score',
      '--dataset',
      MODERATION_DATASET,
      '--results',
      CAREFUL_RESULTS,
      '--html',
      '/proc/x.html',
    ]);
    expectRefused(r, '--html /proc/x.html', 'cannot be under /proc, a kernel file system');
    const advice = /give a folder elsewhere, e\.g\. (\S+)/.exec(r.stderr)?.[1];
    expect(advice, r.stderr).toBe('./reports/');
    const cwd = join(tmp, 'pasted-advice');
    mkdirSync(cwd);
    const pasted = await runCliInProcess(
      ['score', '--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS, '--html', advice!],
      { cwd, env },
    );
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(lstatSync(join(cwd, 'reports')).isDirectory()).toBe(true);
    expect(lstatSync(join(cwd, 'reports', 'score.html')).isFile()).toBe(true);
  });
});

describe('a folder output never replaces the run store by its own file name', () => {
  /** A store moved to `folder/<id>.json`, the file `--out folder` would get for that run. */
  async function storeNamedAsItsReport(command: 'bench' | 'audit', folder: string): Promise<[string, string]> {
    mkdirSync(folder);
    const first = join(folder, 'first.sqlite');
    const r = await cli(
      command === 'bench' ? ['bench', '--limit', '3', '--store', first] : ['audit', '--store', first],
    );
    expect(r.code, r.stderr).toBe(0);
    const id = /(?:run|audit) ((?:audit-)?\S+) saved/.exec(r.stderr + r.stdout)![1]!;
    const moved = join(folder, `${id}.json`);
    renameSync(first, moved);
    return [id, moved];
  }

  for (const command of ['bench', 'audit'] as const)
    it(`refuses ${command} --resume with --out the store's folder before any work`, async () => {
      const folder = join(tmp, `store-as-report-${command}`);
      const [id, store] = await storeNamedAsItsReport(command, folder);
      const before = readFileSync(store);
      const r = await cli([command, '--resume', id, '--store', store, '--out', folder]);
      expectRefused(r, `--out ${folder}`, `${store} is the same file as --store ${store}, which the command reads`);
      expect(readFileSync(store).equals(before)).toBe(true);
      // Nothing but the store (and SQLite's own files beside it): no report was written.
      expect(readdirSync(folder).filter((f) => !f.startsWith(`${id}.json`))).toEqual([]);
    });
});

describe('temporary files', () => {
  it('removes one left by a process killed outright at the next write, and keeps a live process one', async () => {
    const folder = join(tmp, 'partials');
    mkdirSync(folder);
    const gone = spawnSync('true').pid!;
    const stale = join(folder, `.partial-${gone}-0123abcd-${runId}.md`);
    const live = join(folder, `.partial-${process.ppid}-89abcdef-${runId}.md`);
    writeFileSync(stale, 'half a report');
    writeFileSync(live, 'being written');
    const r = await cli(['report', runId, '--out', join(folder, `${runId}.md`), '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(folder).sort()).toEqual([`.partial-${process.ppid}-89abcdef-${runId}.md`, `${runId}.md`]);
  });
});
