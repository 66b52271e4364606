/**
 * End to end: two models of one suite served by the same server (a router-mode reference
 * server on loopback) are sent one after another, never at once, and two on different servers
 * at once (the first server holds its first request until the second server is asked: a
 * barrier, not a clock); a suite interrupted part way
 * (Ctrl+C) exits 130 and prints the command that takes it up again, and that command, pasted,
 * continues the interrupted run instead of starting another and sends only what is missing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-e2e-suite-resume-');
const env = { XDG_DATA_HOME: join(dir, 'xdg'), XDG_CACHE_HOME: join(dir, 'cache') };
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** Decide requests by model, and every time two models had requests in flight at once. */
const sent = new Map<string, number>();
const inFlight = new Map<string, number>();
const overlaps: string[] = [];
/** Called with each decide request's model and how many of that model came before. */
let onDecide: (model: string, count: number) => void = () => undefined;
let url = '';

/** A loopback proxy that reads each decide request's model before passing it on. */
beforeAll(async () => {
  const upstream = await startReferenceServer({ host: '127.0.0.1', port: 0, router: true });
  closers.push(() => upstream.close());
  const target = new URL(upstream.url);
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const model =
        req.method === 'POST' ? String((JSON.parse(body.toString('utf8')) as { model?: string }).model) : null;
      if (model !== null) {
        const busy = [...inFlight].filter(([m, n]) => m !== model && n > 0).map(([m]) => m);
        if (busy.length > 0) overlaps.push(`${model} while ${busy.join(', ')}`);
        inFlight.set(model, (inFlight.get(model) ?? 0) + 1);
        sent.set(model, (sent.get(model) ?? 0) + 1);
        onDecide(model, sent.get(model)!);
      }
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => {
            if (model !== null) inFlight.set(model, inFlight.get(model)! - 1);
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

function cli(args: string[], signal?: AbortSignal): Promise<CliResult> {
  return runCliInProcess(args, { cwd: dir, env, ...(signal === undefined ? {} : { signal }) });
}

describe('a suite of two models on one server', () => {
  it('sends them one after another, and an interrupted suite is taken up where it stopped', async () => {
    writeFileSync(
      join(dir, 'shared.json'),
      JSON.stringify({
        name: 'shared',
        models: [
          { name: 'heuristic', base_url: url, model: 'heuristic' },
          { name: 'prior', base_url: url, model: 'prior' },
        ],
        datasets: [{ dataset: 'sample', limit: 40 }],
        options: { parallel: 4 },
        gate: { baseline: 'prior' },
      }),
    );
    // Ctrl+C once the second model has had ten requests.
    const controller = new AbortController();
    onDecide = (model, count) => {
      if (model === 'prior' && count === 10) controller.abort();
    };
    const stopped = await cli(['suite', 'shared.json', '--store', 'team.sqlite'], controller.signal);
    expect(stopped.code, stopped.stderr).toBe(130);
    const hint = /take the suite up again with: decidekit (suite shared\.json --resume --store team\.sqlite)$/m.exec(
      stopped.stderr,
    );
    expect(hint, stopped.stderr).not.toBeNull();
    // The comparison the unfinished run refuses offers what works when pasted: the suite's own
    // resume (a key named by api_key_env is read again), and a comparison that suite can run.
    expect(stopped.stdout).toContain('finish it with: decidekit suite shared.json --resume --store team.sqlite');
    expect(stopped.stdout).not.toContain('decidekit bench --resume');
    expect(stopped.stdout).toMatch(
      /compare anyway with: decidekit runs compare \S+ \S+ --force --store team\.sqlite\)/,
    );
    const before = new Map(sent);
    const sentBefore = before.get('prior')!;
    expect(sentBefore).toBeLessThan(40);

    onDecide = () => undefined;
    const resumed = await cli([...hint![1]!.split(' '), '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const doc = JSON.parse(resumed.stdout) as {
      runs: { model: string; run_id: string; status: string; reused: boolean; resumed: boolean }[];
    };
    const [heuristic, prior] = doc.runs;
    expect([heuristic!.status, heuristic!.reused]).toEqual(['complete', true]);
    expect([prior!.status, prior!.resumed]).toEqual(['complete', true]);
    // The interrupted run was continued: the same run, and its saved cases were not sent again.
    expect(stopped.stdout).toContain(`prior × sample: run ${prior!.run_id} interrupted`);
    expect(sent.get('heuristic')).toBe(before.get('heuristic'));
    expect(sent.get('prior')! - sentBefore).toBeLessThan(40);
    expect(overlaps).toEqual([]);

    const list = await cli(['runs', 'list', '--store', 'team.sqlite', '--json']);
    const runs = (JSON.parse(list.stdout) as { runs: { id: string; status: string }[] }).runs;
    expect(runs.map((r) => r.status)).toEqual(['complete', 'complete']);
  });
});

/** A loopback proxy to `upstream` that holds every decide request (a POST) until `release` resolves. */
async function holdingProxy(upstream: string, release: Promise<void>, onDecide: () => void): Promise<string> {
  const target = new URL(upstream);
  const proxy = http.createServer((req, res) => {
    if (req.method === 'POST') onDecide();
    void (req.method === 'POST' ? release : Promise.resolve()).then(() => {
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('a suite of two models on two servers', () => {
  it('sends to both at once: the first server is still waiting when the second is asked', async () => {
    const first = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic' });
    const second = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'prior' });
    closers.push(
      () => first.close(),
      () => second.close(),
    );
    let secondAsked!: () => void;
    const secondAskedYet = new Promise<void>((resolve) => (secondAsked = resolve));
    let firstDecides = 0;
    let secondDecidesWhileFirstHeld = 0;
    // Health checks pass at once; the first server's decide requests wait until the second server is asked.
    const firstUrl = await holdingProxy(first.url, secondAskedYet, () => firstDecides++);
    const secondUrl = await holdingProxy(second.url, Promise.resolve(), () => {
      if (firstDecides === 0) return;
      secondDecidesWhileFirstHeld++;
      secondAsked();
    });
    writeFileSync(
      join(dir, 'two.json'),
      JSON.stringify({
        models: [
          { name: 'heuristic', base_url: firstUrl, model: 'heuristic' },
          { name: 'prior', base_url: secondUrl, model: 'prior' },
        ],
        datasets: [{ dataset: 'sample', limit: 10 }],
        options: { timeout: 20, retries: 0 },
      }),
    );
    const r = await cli(['suite', 'two.json', '--store', 'two.sqlite', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(secondDecidesWhileFirstHeld).toBeGreaterThan(0);
  });
});
