/**
 * One process at a time sends a stored run: `bench --resume RUN` while another process still
 * sends RUN is refused (before, both sent the remaining cases and overwrote each other's rows,
 * and `runs check` found the run's summary no longer matching its decisions). A claim left by
 * a process killed outright is taken over.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-run-claim-');

function onlyRunId(store: string): string {
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    const runs = s.runs.list();
    expect(runs).toHaveLength(1);
    return runs[0]!.id;
  } finally {
    s.close();
  }
}

const locksIn = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.lock'));

/**
 * Starts `bench` in process on `limit` cases against a slow reference server (one request
 * at a time) in a fresh folder, and calls `use` once the run is stored and sending.
 */
async function whileBenchSends(
  name: string,
  limit: number,
  use: (bench: {
    dir: string;
    store: string;
    runId: string;
    running: ReturnType<typeof runCliInProcess>;
  }) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmp, `${name}-`));
  const store = join(dir, 'runs.sqlite');
  const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 20 } });
  try {
    let firstProgress!: () => void;
    const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
    const running = runCliInProcess(
      ['bench', '--base-url', server.url, '--limit', String(limit), '--store', store, '--parallel', '1'],
      { onStderr: (text) => text.includes('progress:') && firstProgress() },
    );
    await progressed;
    await use({ dir, store, runId: onlyRunId(store), running });
    expect(server.metrics().decodeTotal).toBe(limit);
  } finally {
    await server.close();
  }
}

describe('bench: one process at a time sends a run', () => {
  it('refuses to resume a run another bench is still sending, and the run stays consistent', async () => {
    await whileBenchSends('busy', 60, async ({ dir, store, runId, running }) => {
      expect(locksIn(dir)).toEqual([`runs.sqlite.${runId}.lock`]);
      const shown = await runCliInProcess(['runs', 'show', runId, '--store', store, '--no-ci']);
      expect(shown.stdout).toMatch(
        new RegExp(`status +running \\(\\d+ of 60 cases saved; being sent by pid ${process.pid} on `),
      );
      const second = await runCliInProcess(['bench', '--resume', runId, '--store', store]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`run ${runId} is being run by another decidekit process (pid ${process.pid} on `);
      expect(second.stderr).toContain('nothing was sent');
      expect(second.stderr.match(/being run by another/g)).toHaveLength(1);
      expect(second.stderr).not.toContain('internal error');
      expect(second.stderr).not.toMatch(/\n\s+at /);

      const first = await running;
      expect(first.code).toBe(0);
      expect(locksIn(dir)).toEqual([]);
      const check = await runCliInProcess(['runs', 'check', '--store', store]);
      expect(check.code).toBe(0);
      expect(check.stdout).toContain(`ok  ${runId}  complete, 60 saved cases`);
      expect((await runCliInProcess(['runs', 'show', runId, '--store', store, '--no-ci'])).stdout).toMatch(
        /status +complete\n/,
      );
      // Each of the 60 cases was sent once (checked on the server's count by whileBenchSends).
    });
  });

  it('refuses to delete a run another bench is still sending, and deletes it once finished', async () => {
    await whileBenchSends('delete', 40, async ({ dir, store, runId, running }) => {
      const refused = await runCliInProcess(['runs', 'delete', runId.slice(0, 17), '--yes', '--store', store]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`run ${runId} is being run by another decidekit process`);
      expect(refused.stderr).toContain('stop it (Ctrl+C) first; nothing was deleted');
      expect(refused.stdout).toBe('');

      const first = await running;
      expect(first.code).toBe(0);
      expect(first.stderr).not.toContain('unknown run');
      expect((await runCliInProcess(['runs', 'check', '--store', store])).stdout).toContain(
        `ok  ${runId}  complete, 40 saved cases`,
      );
      const deleted = await runCliInProcess(['runs', 'delete', runId, '--yes', '--store', store]);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toBe(`deleted run ${runId}\n`);
      expect(locksIn(dir)).toEqual([]);
    });
  });

  it('takes over the claim of a bench killed outright, and releases it when done', async () => {
    const dir = mkdtempSync(join(tmp, 'killed-'));
    const store = join(dir, 'runs.sqlite');
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 20 } });
    try {
      const killed = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [CLI, 'bench', '--base-url', server.url, '--limit', '60', '--store', store, '--parallel', '1'],
          { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
          if (/progress: [1-9]\d+\//.test(stderr)) child.kill('SIGKILL');
        });
        child.on('error', reject);
        child.on('close', (_code, signal) => resolve(signal));
      });
      expect(killed).toBe('SIGKILL');
      const runId = onlyRunId(store);
      // Its claim is left behind, naming a process that is gone.
      expect(existsSync(join(dir, `runs.sqlite.${runId}.lock`))).toBe(true);

      const resumed = await runCliInProcess(['bench', '--resume', runId, '--store', store]);
      expect(resumed.stderr).not.toContain('being run by another');
      expect(resumed.code).toBe(0);
      expect(locksIn(dir)).toEqual([]);
      expect((await runCliInProcess(['runs', 'check', '--store', store])).code).toBe(0);
    } finally {
      await server.close();
    }
  });
});
