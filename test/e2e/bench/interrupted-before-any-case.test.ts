/**
 * A new run stopped (Ctrl+C) before any of its cases finished keeps nothing: no empty
 * "interrupted 0/N" run is stored, and no resume is suggested. The real CLI in process, the
 * real reference server on 127.0.0.1 (slow, so no case finishes first), a real SQLite store.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-interrupted-empty-');

describe('bench stopped before any case finished', () => {
  it('stores no run and suggests no resume', async () => {
    const store = join(tmp, 'runs.sqlite');
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 2000 } });
    try {
      const controller = new AbortController();
      const r = await runCliInProcess(['bench', '--base-url', server.url, '--store', store], {
        signal: controller.signal,
        onStderr: (text) => {
          if (text.includes('decidekit bench: ')) controller.abort();
        },
      });
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('interrupted; 0 of 100 cases kept.');
      expect(r.stderr).not.toContain('Resume with');
      const list = await runCliInProcess(['runs', 'list', '--store', store, '--json']);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).runs).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
