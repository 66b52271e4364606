/**
 * Each replica its own requests in flight: `--parallel` given once per `--base-url`, in their
 * order (`--base-url A --parallel 3 --base-url B --parallel 1`). A counting relay in front of
 * each reference server sees how many of the run's requests are open at once: never more
 * than that replica's own number. A count of `--parallel` that matches neither one nor the
 * number of replicas is refused, naming the option.
 */
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-replica-parallel-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { columns: 200 });
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A relay to `target` that counts the requests open through it at once (the most of them, ever). */
async function countingRelay(target: ReferenceServer): Promise<{ url: string; most: () => number }> {
  let open = 0;
  let most = 0;
  const to = new URL(target.url);
  const relay: Server = createServer((req, res) => {
    open++;
    most = Math.max(most, open);
    const out = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => open--);
      },
    );
    out.on('error', () => {
      open--;
      res.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        relay.closeAllConnections();
        relay.close(() => resolve());
      }),
  );
  const { port } = relay.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, most: () => most };
}

async function server(): Promise<ReferenceServer> {
  // A little latency, so requests overlap as much as each replica's limit allows.
  const s = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic', faults: { latencyMs: 15 } });
  closers.push(() => s.close());
  return s;
}

describe('bench --parallel once per --base-url', () => {
  it('keeps each replica within its own number of requests in flight, and records them', async () => {
    const wide = await countingRelay(await server());
    const narrow = await countingRelay(await server());
    const r = await cli([
      'bench',
      '--base-url',
      wide.url,
      '--parallel',
      '3',
      '--base-url',
      narrow.url,
      '--parallel',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(wide.most()).toBeLessThanOrEqual(3);
    expect(narrow.most()).toBe(1);
    // The wide replica had more than one request open at once: the limits are each replica's own.
    expect(wide.most()).toBeGreaterThan(1);
    expect(r.stdout).toContain('parallel 3, 1 (per replica)');

    const s = openStore(store, { mustExist: true, readOnly: true });
    const run = s.runs.get(s.runs.list()[0]!.id)!;
    s.close();
    expect(run.config.parallelByReplica).toEqual([3, 1]);
    expect(run.config.replicas).toEqual([wide.url, narrow.url]);

    // Where the run was sent names each replica with its own number, not only the first.
    const each = `${wide.url} (parallel 3), ${narrow.url} (parallel 1)`;
    expect(r.stdout).toContain(`at ${each}`);
    for (const argv of [
      ['report', run.id],
      ['report', run.id, '--format', 'markdown'],
      ['runs', 'show', run.id],
    ]) {
      const shown = await cli(argv);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout.replaceAll('`', '')).toContain(each);
    }
    const redacted = await cli(['runs', 'show', run.id, '--redact']);
    expect(redacted.stdout).toContain('replica 1 (parallel 3), replica 2 (parallel 1)');

    // Resumed with one --parallel, every replica is sent that many, and its report says so.
    const resumed = await cli(['bench', '--resume', run.id, '--parallel', '2']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`at ${wide.url}, ${narrow.url} · parallel 2, timeout`);
  }, 60_000);

  it('gives one --parallel to every replica, as before', async () => {
    const a = await countingRelay(await server());
    const b = await countingRelay(await server());
    const r = await cli(['bench', '--base-url', a.url, b.url, '--parallel', '2', '--limit', '20']);
    expect(r.code, r.stderr).toBe(0);
    expect(Math.max(a.most(), b.most())).toBeLessThanOrEqual(2);
    // Each replica had two requests open at once: the one number is every replica's own, not shared.
    expect(a.most()).toBe(2);
    expect(b.most()).toBe(2);
    expect(r.stdout).toContain('parallel 2,');
  }, 60_000);

  it('refuses a count of --parallel that is neither one nor one per --base-url, naming it once', async () => {
    for (const [argv, message] of [
      [
        ['bench', '--base-url', 'http://127.0.0.1:9', 'http://127.0.0.1:10', '--parallel', '1', '2', '3'],
        '--parallel is given 3 times for 2 --base-url servers: give it once (for each of them) or once per --base-url, in their order',
      ],
      [
        ['bench', '--base-url', 'http://127.0.0.1:9', '--parallel', '1', '--parallel', '2'],
        '--parallel is given 2 times for 1 --base-url server: give it once (for each of them) or once per --base-url, in their order',
      ],
      [
        ['bench', '--parallel', '4', '--parallel', '2'],
        '--parallel is given 2 times for the embedded reference server',
      ],
      [['bench', '--base-url', 'http://127.0.0.1:9', '--parallel', '2', '0'], '--parallel "0" is not valid'],
    ] as const) {
      const r = await cli([...argv]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split(message), r.stderr).toHaveLength(2);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
