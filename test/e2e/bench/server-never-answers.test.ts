/**
 * `bench` against a server that accepts connections and never answers: the shared stop rule
 * (as `probe` and `audit`) ends the run after its first five requests all time out, instead
 * of spending `--timeout` on every case.
 */
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStore } from '../../../src/store/index.js';

const tmp = tempFolderRemovedAfterAll('decidekit-silent-server-');
const env = { XDG_DATA_HOME: join(tmp, 'data'), XDG_CACHE_HOME: join(tmp, 'cache') };

const sockets: net.Socket[] = [];
let connections = 0;
const silent = net.createServer((socket) => {
  connections++;
  sockets.push(socket);
  socket.on('error', () => {}).resume();
});
const listening = new Promise<number>((resolve) =>
  silent.listen(0, '127.0.0.1', () => resolve((silent.address() as AddressInfo).port)),
);
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const STOPPED =
  'decidekit bench: stopped: the first 5 requests all timed out (no answer within 0.2 s each): the server accepts connections but does not answer';

describe('bench against a server that accepts connections and never answers', () => {
  it('stops after its first five requests all time out, exit 1', async () => {
    const port = await listening;
    connections = 0;
    const r = await runCliInProcess(
      ['bench', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '0.2', '--retries', '0', '--no-store'],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(STOPPED);
    expect(connections).toBe(5);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('keeps a stored run as incomplete and prints the resume command', async () => {
    const port = await listening;
    const store = join(tmp, 'silent.sqlite');
    const r = await runCliInProcess(
      ['bench', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '0.2', '--retries', '0', '--store', store],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(STOPPED);
    const s = openStore(store, { mustExist: true });
    const [run] = s.runs.list();
    s.close();
    expect(run!.status).toBe('incomplete');
    const hint = `decidekit bench --resume ${run!.id} --retry-failed --store ${store}`;
    expect(r.stderr).toContain(`is kept as incomplete; resume with: ${hint}`);
    // The hint pasted: the same server, still silent, stops it the same way (not a usage error).
    const again = await runCliInProcess([...hint.split(' ').slice(1), '--timeout', '0.2', '--retries', '0'], { env });
    expect(again.stderr).toContain(STOPPED);
    expect(again.code).toBe(1);
  });
});
