/**
 * `-` is no output path: no option of decidekit writes a stream on `-`, so every output
 * option (and the run store, from `--store` or DECIDEKIT_STORE) refuses it in words, exit 2,
 * before any work, rather than make a file or folder named "-". The real CLI in process, in
 * a temp folder that must stay empty.
 */
import { readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { CAREFUL_RESULTS, DATA, MODERATION_DATASET, inboxActionsArgv } from '../../support/offline-samples.js';

const tmp = tempFolderRemovedAfterAll('decidekit-dash-');
const store = join(tmp, 'runs.sqlite');
const env = { XDG_DATA_HOME: tmp };
let runId = '';
let otherId = '';

async function benchRun(): Promise<string> {
  const r = await runCliInProcess(['bench', '--limit', '2', '--store', store], { env });
  expect(r.code, r.stderr).toBe(0);
  return /run (\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(r.stderr + r.stdout)![1]!;
}

beforeAll(async () => {
  runId = await benchRun();
  otherId = await benchRun();
});

const OFFLINE = ['--dataset', MODERATION_DATASET, '--results', CAREFUL_RESULTS];

describe("'-' as an output path", () => {
  it('is refused in words by every output option, exit 2, and nothing named "-" is made', async () => {
    const cases: [string, string[]][] = [
      ['--out', ['report', runId, '--store', store, '--out', '-']],
      ['--out', ['runs', 'report', runId, '--store', store, '--out', '-']],
      ['--out', ['runs', 'export', runId, '--format', 'csv', '--store', store, '--out', '-']],
      ['--out', ['runs', 'compare', runId, otherId, '--format', 'html', '--store', store, '--out', '-']],
      ['--html', ['score', ...OFFLINE, '--html', '-']],
      [
        '--html',
        [
          'compare',
          '--dataset',
          MODERATION_DATASET,
          '--results',
          CAREFUL_RESULTS,
          '--results',
          join(DATA, 'moderation', 'results-loud-1.jsonl'),
          '--html',
          '-',
        ],
      ],
      ['--html', ['tune', ...OFFLINE, '--html', '-']],
      ['--html', [...inboxActionsArgv(), '--html', '-']],
      ['--out', ['calibrate', ...OFFLINE, '--out', '-']],
      ['--html', ['calibrate', ...OFFLINE, '--html', '-']],
      ['--record', ['live', '--record', '-', '--base-url', 'http://127.0.0.1:1']],
      ['--out', ['bench', '--limit', '1', '--no-store', '--out', '-']],
      ['--out', ['audit', '--no-store', '--out', '-']],
      ['--out', ['probe', '--cases', '1', '--no-store', '--out', '-']],
      ['--bundle', ['view', '--bundle', '-', '--store', store]],
    ];
    for (const [flag, argv] of cases) {
      const cwd = join(tmp, `cwd-${argv[0]}-${argv[1]}-${flag.slice(2)}`);
      mkdirSync(cwd);
      const r = await runCliInProcess(argv, { env, cwd });
      expect({ argv, code: r.code }, r.stderr).toEqual({ argv, code: 2 });
      expect(r.stderr).toContain(`${flag} -: '-' is not standard output here: give a `);
      expect(r.stderr.match(/not standard output/g)).toHaveLength(1);
      expect(r.stdout).toBe('');
      expect(readdirSync(cwd), argv.join(' ')).toEqual([]);
    }
  });

  it('is refused as the run store from DECIDEKIT_STORE, as --store - is', async () => {
    const cwd = join(tmp, 'cwd-env-store');
    mkdirSync(cwd);
    const r = await runCliInProcess(['bench', '--limit', '1'], { env: { ...env, DECIDEKIT_STORE: '-' }, cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('DECIDEKIT_STORE=- names no file: a run store is a file');
    expect(readdirSync(cwd)).toEqual([]);
    const flag = await runCliInProcess(['bench', '--limit', '1', '--store', '-'], { env, cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--store - names no file: a run store is a file');
    expect(readdirSync(cwd)).toEqual([]);
  });
});
