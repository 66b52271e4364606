/**
 * A run interrupted under `--no-store` says what is true: nothing was kept and there is
 * nothing to resume. The real CLI in process against the real reference server on loopback.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';

describe('bench interrupted without a store', () => {
  it('says how many cases finished and that nothing was kept, with no resume command', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 40 } });
    try {
      const controller = new AbortController();
      let started = false;
      const r = await runCliInProcess(['bench', '--base-url', server.url, '--no-store'], {
        signal: controller.signal,
        onStderr: (text) => {
          if (started || !text.includes('decidekit bench: ')) return;
          started = true;
          setTimeout(() => controller.abort(), 600);
        },
      });
      expect(r.code, r.stderr).toBe(130);
      const line =
        /decidekit bench: interrupted after (\d+) of 100 cases; nothing was kept \(the run was not stored, so it cannot be resumed\)\./.exec(
          r.stderr,
        );
      expect(line, r.stderr).not.toBeNull();
      expect(Number(line![1])).toBeGreaterThan(0);
      expect(r.stderr).not.toContain('cases kept');
      expect(r.stderr).not.toContain('Resume with');
    } finally {
      await server.close();
    }
  });
});
