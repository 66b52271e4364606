/**
 * End to end: the store's writer thread meets a disk that refuses writes in the middle of a
 * run (the process's file size limit, `prlimit --fsize`: every write past it fails as on a
 * full disk). The real CLI is spawned under the limit against a reference server on
 * loopback that answers in 5 ms, so the first batches are small on any machine.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { writeScaleDataset } from '../../../bench/make-scale-dataset.js';
import { withoutTimings } from '../../support/bench-json.js';
import { shellWord } from '../../../src/core/shell-word.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-store-failure-');

/** The CLI with `args`; under a file size limit; or `args` as one shell command line (`sh -c`). */
function cli(args: string[], options: { fileSizeLimitBytes?: number; shellLine?: string } = {}) {
  const command =
    options.shellLine !== undefined
      ? ['sh', '-c', options.shellLine]
      : options.fileSizeLimitBytes === undefined
        ? [process.execPath, CLI, ...args]
        : ['prlimit', `--fsize=${options.fileSizeLimitBytes}`, process.execPath, CLI, ...args];
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: join(tmp, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bench when the disk refuses the store a write mid-run', () => {
  it('stops with one located message and exit 1, keeps every counted case, and resumes to the clean run', async () => {
    const dataset = join(tmp, 'scale-600.jsonl');
    writeScaleDataset(dataset, 600, 3);
    // A folder and name that need quoting: the printed resume command must work when pasted.
    const store = join(tmp, "full store's.sqlite");
    const server = await startReferenceServer({
      host: '127.0.0.1',
      port: 0,
      model: 'heuristic',
      faults: { latencyMs: 5 },
    });
    try {
      const base = ['bench', '--base-url', server.url, '--dataset', dataset, '--parallel', '8'];

      // 400 kB: the store is created and the first batches commit, then the log outgrows it.
      const failed = await cli([...base, '--store', store, '--json'], { fileSizeLimitBytes: 400_000 });
      expect(failed.code).toBe(1);
      const s = openStore(store);
      const [head] = s.runs.list();
      const saved = s.cases.savedIds(head!.id, { includeFailed: true }).size;
      const check = s.runs.check(head!.id);
      s.close();
      const messages = failed.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'));
      expect(messages).toEqual([
        `decidekit bench: stopped: cannot save to run store ${store} (run ${head!.id}): the disk refused a write (disk I/O error: the disk may be full, or the file over a size limit); the run is interrupted: resume with: decidekit bench --resume ${head!.id} --store ${shellWord(store)}`,
      ]);
      expect(failed.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(failed.stdout).toBe('');
      // Every case a progress event counted was committed first, and nothing stored is damaged.
      const counted = Math.max(
        0,
        ...failed.stderr
          .split('\n')
          .filter((l) => l.startsWith('{"event":"progress"'))
          .map((l) => (JSON.parse(l) as { cases_done: number }).cases_done),
      );
      expect(counted).toBeGreaterThan(0);
      expect(saved).toBeGreaterThanOrEqual(counted);
      expect(saved).toBeLessThan(600);
      expect(check.problems).toEqual([]);

      // The printed command, pasted into a shell.
      const pasted = messages[0]!.split('resume with: decidekit ')[1]!;
      const resumed = await cli([], {
        shellLine: `${shellWord(process.execPath)} ${shellWord(CLI)} ${pasted} --json`,
      });
      expect(resumed.code).toBe(0);
      const clean = await cli([...base, '--json', '--no-store']);
      expect(clean.code).toBe(0);
      const resumedDoc = withoutTimings(resumed.stdout);
      expect(resumedDoc.decisions).toHaveLength(3000);
      expect(resumedDoc).toEqual(withoutTimings(clean.stdout));
    } finally {
      await server.close();
    }
  }, 60_000);
});
