/**
 * One run sent to two replicas of one model (`bench --base-url A --base-url B`): the real
 * CLI in process, two reference servers on 127.0.0.1, a real SQLite store. One replica is
 * closed half way: the run completes on the other, a note names the one set aside, every
 * case is stored once with the replica that answered it, and the summary equals a run on
 * one server. A slow and a fast replica: the fast one answers more cases.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import type { BenchRun } from '../../../src/core/bench/run.js';

const tmp = tempFolderRemovedAfterAll('decidekit-replicas-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { columns: 200 });
const servers: ReferenceServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(options: Parameters<typeof startReferenceServer>[0] = {}): Promise<ReferenceServer> {
  const s = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic', ...options });
  servers.push(s);
  return s;
}

function newestRun(): BenchRun {
  const s = openStore(store, { mustExist: true, readOnly: true });
  try {
    return s.runs.get(s.runs.list()[0]!.id)!;
  } finally {
    s.close();
  }
}

/** The summary's numbers that do not depend on time (latency and duration left out). */
function timeless(run: BenchRun): unknown {
  const { byReplica: _byReplica, ...rest } = run.summary as unknown as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest, (key, value) => (/(duration|latency|Ms$)/i.test(key) ? undefined : value)));
}

/**
 * A reference server that the tenth request it sees closes: nothing listens there any more.
 * `closed()` resolves once it has closed (at once if it never did).
 */
async function serverClosingOnItsTenthRequest(): Promise<ReferenceServer & { closed(): Promise<void> }> {
  let asked = 0;
  let closing: Promise<void> = Promise.resolve();
  const dying: ReferenceServer = await server({
    faults: {
      rule: () => {
        if (++asked === 10) closing = dying.close();
        return undefined;
      },
    },
    closeGraceMs: 0,
  });
  return Object.assign(dying, { closed: () => closing });
}

describe('bench with several replicas', () => {
  it('completes on the other replica when one is closed half way, each case stored once', async () => {
    const steady = await server();
    const dying = await serverClosingOnItsTenthRequest();
    const r = await cli(['bench', '--base-url', steady.url, '--base-url', dying.url, '--parallel', '2']);
    await dying.closed();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${dying.url} set aside`);
    expect(r.stdout).toMatch(new RegExp(`${steady.url}: p50 \\S+ ms · p95 \\S+ ms  \\(\\d+ requests, 0 failed\\)`));
    const run = newestRun();
    expect(run.summary.requests.failed).toBe(0);
    expect(run.cases).toHaveLength(run.config.caseIds.length);
    expect(new Set(run.cases.map((c) => c.caseId)).size).toBe(run.config.caseIds.length);
    const byReplica = new Map<string, number>();
    for (const c of run.cases) byReplica.set(c.request.replica!, (byReplica.get(c.request.replica!) ?? 0) + 1);
    expect([...byReplica.keys()].sort()).toEqual([steady.url, dying.url].sort());
    expect(byReplica.get(dying.url)).toBeLessThan(10);
    expect(run.config.replicas).toEqual([steady.url, dying.url]);
    expect(Object.keys(run.summary.byReplica!).sort()).toEqual([steady.url, dying.url].sort());
    expect(run.summary.byReplica![dying.url]!.requests).toBe(byReplica.get(dying.url));
    const json = await cli(['report', run.id, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const byReplicaJson = (JSON.parse(json.stdout) as { summary: { by_replica: { replica: string }[] } }).summary
      .by_replica;
    expect(byReplicaJson.map((r) => r.replica).sort()).toEqual([steady.url, dying.url].sort());
    const md = await cli(['report', run.id, '--format', 'markdown']);
    expect(md.stdout).toContain('| replica | requests | failed | p50 | p95 |');
    const redacted = await cli(['report', run.id, '--format', 'markdown', '--redact']);
    expect(redacted.stdout).toContain('| replica 1 |');
    expect(redacted.stdout).not.toContain('127.0.0.1');
    const html = await cli(['report', run.id, '--format', 'html']);
    expect(html.stdout).toContain('id="replica-latency"');

    const one = await cli(['bench', '--base-url', steady.url, '--parallel', '2']);
    expect(one.code, one.stderr).toBe(0);
    const single = newestRun();
    expect(single.cases.every((c) => c.request.replica === undefined)).toBe(true);
    expect(single.config.replicas).toBeUndefined();
    expect(timeless(run)).toEqual(timeless(single));
  }, 60_000);

  it('stores the note of a replica set aside with the run: runs show, every report and a copy of the run show it', async () => {
    const steady = await server();
    const dying = await serverClosingOnItsTenthRequest();
    const r = await cli(['bench', '--base-url', steady.url, '--base-url', dying.url, '--parallel', '1']);
    await dying.closed();
    expect(r.code, r.stderr).toBe(0);
    const run = newestRun();
    const host = new URL(dying.url).host;
    // Its one request in flight when it closed is the tenth: nine were answered.
    expect(run.setAside).toEqual([
      {
        replica: dying.url,
        reason: expect.stringContaining(host),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        answeredCases: 9,
      },
    ]);
    const said = new RegExp(
      `${dying.url} set aside at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC after 9 answered cases: `,
    );
    const shown = await cli(['runs', 'show', run.id, '--no-ci']);
    expect(shown.stdout).toMatch(said);
    for (const format of ['markdown', 'html', 'terminal']) {
      const report = await cli(['report', run.id, '--format', format]);
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout, format).toMatch(said);
    }
    const json = JSON.parse((await cli(['report', run.id, '--format', 'json'])).stdout) as { set_aside: unknown };
    expect(json.set_aside).toEqual([
      { replica: dying.url, reason: run.setAside![0]!.reason, at: run.setAside![0]!.at, answered_cases: 9 },
    ]);
    const redacted = await cli(['runs', 'show', run.id, '--no-ci', '--redact']);
    expect(redacted.stdout).toMatch(/replica \d set aside at .* after 9 answered cases: /);
    expect(redacted.stdout).not.toContain(host);

    const copy = join(tmp, 'copy.sqlite');
    const pushed = await cli(['runs', 'push', run.id, '--to', copy]);
    expect(pushed.code, pushed.stderr).toBe(0);
    const copied = openStore(copy, { mustExist: true, readOnly: true });
    expect(copied.runs.get(run.id)!.setAside).toEqual(run.setAside);
    copied.close();
  }, 60_000);

  it('names every replica on its start line, in --base-url order', async () => {
    const a = await server();
    const b = await server();
    const r = await cli(['bench', '--base-url', a.url, '--base-url', b.url, '--limit', '4']);
    expect(r.code, r.stderr).toBe(0);
    const start = r.stderr.split('\n').find((l) => l.startsWith('decidekit bench: 4 of 4 cases'));
    expect(start).toContain(`against 2 replicas: ${a.url}, ${b.url}`);
  });

  it('gives more cases to the replica that answers faster', async () => {
    const fast = await server();
    const slow = await server({ faults: { latencyMs: 40 } });
    const r = await cli(['bench', '--base-url', slow.url, fast.url, '--parallel', '1']);
    expect(r.code, r.stderr).toBe(0);
    const run = newestRun();
    const count = (url: string) => run.cases.filter((c) => c.request.replica === url).length;
    expect(count(fast.url) + count(slow.url)).toBe(run.config.caseIds.length);
    expect(count(fast.url)).toBeGreaterThan(count(slow.url));
  }, 60_000);

  it('refuses replicas that serve different models before sending anything, naming both', async () => {
    const heuristic = await server();
    const prior = await server({ model: 'prior' });
    const before = newestRun().id;
    const r = await cli(['bench', '--base-url', heuristic.url, prior.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `replicas of one run must serve the same model: ${heuristic.url} serves "heuristic", ${prior.url} serves "prior"`,
    );
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(newestRun().id).toBe(before);
  });

  it('refuses replicas with --shards rather than sending to the first only', async () => {
    const r = await cli(['bench', '--base-url', 'http://127.0.0.1:9', 'http://127.0.0.1:10', '--shards', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--shards sends to one --base-url: give it one, and start each worker with the replica it sends to (worker's --base-url)",
    );
  });

  it('refuses a replica given twice', async () => {
    const one = await server();
    const r = await cli(['bench', '--base-url', one.url, '--base-url', one.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is given twice');
  });
});
