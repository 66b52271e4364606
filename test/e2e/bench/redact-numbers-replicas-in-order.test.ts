/**
 * `--redact` names each replica `replica N` by its place in the `--base-url` order, the same
 * number in every output: a healthy replica given first and a dead one given second are
 * `replica 1` and `replica 2`, however their URLs sort and whether or not the dead one ever
 * answered. The real CLI in process, the real reference server on 127.0.0.1, a real store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-redact-replicas-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { columns: 200 });
// Nothing listens on port 1, and its URL sorts before the healthy server's.
const DEAD = 'http://127.0.0.1:1';
let server: ReferenceServer;
let run = '';
let startLine = '';

beforeAll(async () => {
  server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
  expect(DEAD < server.url).toBe(true);
  const r = await cli(['bench', '--base-url', server.url, '--base-url', DEAD, '--limit', '20']);
  expect(r.code, r.stderr).toBe(0);
  const s = openStore(store, { mustExist: true, readOnly: true });
  run = s.runs.list()[0]!.id;
  s.close();
  const redacted = await cli(['bench', '--base-url', server.url, '--base-url', DEAD, '--limit', '2', '--redact']);
  expect(redacted.code, redacted.stderr).toBe(0);
  startLine = redacted.stderr.split('\n').find((l) => l.startsWith('decidekit bench: 2 of ')) ?? '';
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('--redact numbers replicas by their --base-url order', () => {
  it('names the healthy first replica replica 1 and the dead second one replica 2 in JSON', async () => {
    for (const argv of [
      ['report', run, '--redact', '--format', 'json'],
      ['runs', 'show', run, '--redact', '--json'],
    ]) {
      const r = await cli(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('127.0.0.1');
      const doc = JSON.parse(r.stdout) as {
        set_aside: { replica: string }[];
        summary: { by_replica: { replica: string }[] };
      };
      expect(doc.set_aside.map((s) => s.replica)).toEqual(['replica 2']);
      expect(doc.summary.by_replica.map((b) => b.replica)).toContain('replica 1');
      expect(doc.summary.by_replica.map((b) => b.replica)[0]).toBe('replica 1');
    }
  });

  it('numbers the replicas on the start line too, naming no host', () => {
    expect(startLine).toContain('against 2 replicas: replica 1, replica 2');
    expect(startLine).not.toContain('127.0.0.1');
  });

  it('says the same in the report and in runs show', async () => {
    for (const argv of [
      ['report', run, '--redact'],
      ['runs', 'show', run, '--redact'],
    ]) {
      const r = await cli(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('127.0.0.1');
      expect(r.stdout).toContain('replica 2 set aside at');
      expect(r.stdout).not.toContain('replica 1 set aside');
    }
    const report = await cli(['report', run, '--redact']);
    expect(report.stdout).toMatch(/replica 1: p50/);
  });
});
