/**
 * What a new user meets when the setup is wrong: `bench` run in process through
 * `runCli(argv, io)` against servers on 127.0.0.1 that answer wrongly or not at all.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const SAMPLE = join(import.meta.dirname, '..', '..', '..', 'data', 'typed-decisions-sample', 'test.jsonl');
const tmp = tempFolderRemovedAfterAll('decidekit-first-contact-');

const env = { XDG_DATA_HOME: join(tmp, 'data'), XDG_CACHE_HOME: join(tmp, 'cache') };

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on: bound once, then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function runsIn(store: string): number {
  if (!existsSync(store)) return 0;
  const s = openStore(store, { mustExist: true });
  try {
    return s.runs.list().length;
  } finally {
    s.close();
  }
}

describe('bench against a server that answers wrongly or not at all', () => {
  it('stops at once when nothing listens, says so, and stores nothing', async () => {
    const port = await freePort();
    const store = join(tmp, 'refused.sqlite');
    const r = await runCliInProcess(['bench', '--base-url', `http://127.0.0.1:${port}`, '--store', store], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing is listening at 127.0.0.1:${port}; is the server running?`);
    expect(r.stdout).toBe('');
    expect(runsIn(store)).toBe(0);
  });

  it('names the place a redirecting server points to', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(301, { location: 'http://127.0.0.1:9/api/v1/systemone' });
      res.end();
    });
    const port = await listen(server);
    try {
      const r = await runCliInProcess(['bench', '--base-url', `http://127.0.0.1:${port}`, '--no-store'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the server redirects to http://127.0.0.1:9/api/v1/systemone (HTTP 301)');
      expect(r.stderr).toContain('use http://127.0.0.1:9/api as --base-url');
    } finally {
      server.close();
    }
  });

  it('says TLS was spoken to a plain HTTP port', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    try {
      const r = await runCliInProcess(['bench', '--base-url', server.url.replace('http:', 'https:'), '--no-store'], {
        env,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot speak TLS to 127\.0\.0\.1:\d+: .*use http:\/\//);
    } finally {
      await server.close();
    }
  });

  it('stops when the first cases are all rejected the same way, quoting the reason in full', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, router: true });
    const store = join(tmp, 'rejected.sqlite');
    try {
      const r = await runCliInProcess(
        ['bench', '--base-url', server.url, '--model', 'laya', '--parallel', '2', '--store', store],
        { env },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/the server rejected the first \d+ requests the same way: HTTP 400: .*laya/);
      // The body is quoted as the JSON it is, its inner quotes escaped: it reads back whole.
      const quoted = /HTTP 400: (\{.*\}) \(check --model/.exec(r.stderr)?.[1];
      expect(JSON.parse(quoted!)).toMatchObject({
        error: {
          code: 400,
          message: 'unknown model "laya": this server serves heuristic, prior, uniform, zero, judge',
        },
      });
      expect(runsIn(store)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('checks --out before sending anything', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const r = await runCliInProcess(['bench', '--out', file, '--no-store'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${file}: is a file, not a folder`);
    expect(r.stderr).not.toContain('cases (synthetic sample)');
    const under = await runCliInProcess(['bench', '--out', join(file, 'reports'), '--no-store'], { env });
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`--out ${join(file, 'reports')}: a part of the path is a file, not a folder`);
  });

  it('refuses numbers written in other bases or exponents, and a value option given twice', async () => {
    for (const argv of [
      ['--timeout', '0x10'],
      ['--parallel', '1e9'],
      ['--parallel', '5000'],
    ]) {
      const r = await runCliInProcess(['bench', ...argv, '--no-store'], { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${argv[0]} "${argv[1]}" is not valid`);
    }
    const twice = await runCliInProcess(['bench', '--workflow', 'a', '--workflow', 'b', '--no-store'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--workflow is given 2 times');
  });

  it('asks for a scheme when the base URL has none, and names bad percent-encoding', async () => {
    const r = await runCliInProcess(['bench', '--base-url', 'user:pw@127.0.0.1:8080', '--no-store'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no scheme; add http:// (http://127.0.0.1:8080)');
    expect(r.stderr).not.toContain('pw');
    const pct = await runCliInProcess(['bench', '--base-url', 'http://127.0.0.1:8080/a%zz', '--no-store'], { env });
    expect(pct.code).toBe(2);
    expect(pct.stderr).toContain("has a '%' that is not followed by two hex digits");
    expect(pct.stderr).not.toContain('internal error');
  });

  it('samples cases across workflows with --sample and says the run is filtered', async () => {
    const r = await runCliInProcess(['bench', '--sample', '8', '--seed', '3', '--no-store', '--json'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { config: { case_ids: string[]; filters: unknown } };
    expect(doc.config.case_ids).toHaveLength(8);
    expect(new Set(doc.config.case_ids.map((id) => id.replace(/_\d+$/, ''))).size).toBe(4);
    expect(doc.config.filters).toEqual({ limit: null, workflow: null, sample: { cases: 8, seed: 3 } });
  });

  it('suggests the option meant', async () => {
    const r = await runCliInProcess(['bench', '--paralel', '4'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --paralel (did you mean --parallel?)');
  });

  it('prints hints that work as pasted: the store given, and the resume of an incomplete run', async () => {
    const server = await startReferenceServer({
      host: '127.0.0.1',
      port: 0,
      faults: { seed: 3, failRate: 0.2, failStatus: 500 },
    });
    const store = join(tmp, 'my runs.sqlite');
    try {
      const r = await runCliInProcess(
        ['bench', '--base-url', server.url, '--limit', '20', '--parallel', '3', '--retries', '0', '--store', store],
        { env },
      );
      expect(r.code).toBe(1);
      const id = /run (\S+) is incomplete/.exec(r.stderr)?.[1];
      expect(id).toBeDefined();
      expect(r.stderr).toContain(`to finish it: decidekit bench --resume ${id} --retry-failed --store '${store}'`);
      // The resume keeps the run's own --parallel, and says what it does with failed cases.
      const resumed = await runCliInProcess(['bench', '--resume', id!, '--store', store], { env });
      expect(resumed.stderr).toMatch(/failed cases? (is|are) kept as (it is|they are); add --retry-failed/);
      const s = openStore(store, { mustExist: true });
      try {
        expect(s.runs.get(id!)!.config.parallel).toBe(3);
      } finally {
        s.close();
      }
    } finally {
      await server.close();
    }
  });

  it('names the model that answered, beside the one asked for, in the report and after a re-read from the store', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'heuristic' });
    const store = join(tmp, 'answered-by.sqlite');
    try {
      const r = await runCliInProcess(
        ['bench', '--base-url', server.url, '--model', 'laya', '--limit', '3', '--store', store],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Answered by model heuristic (asked for laya) at http://127.0.0.1:');
      const id = /run (\S+) saved/.exec(r.stderr)![1]!;
      const again = await runCliInProcess(['report', id, '--store', store], { env });
      expect(again.stdout).toContain('Answered by model heuristic (asked for laya)');
      const md = await runCliInProcess(['report', id, '--format', 'markdown', '--store', store], { env });
      expect(md.stdout).toContain('Answered by model `heuristic` (asked for `laya`)');
    } finally {
      await server.close();
    }
  });

  it('finds a dataset given by path on resume, and refuses it when its content changed', async () => {
    const file = join(tmp, 'cases.jsonl');
    const lines = readFileSync(SAMPLE, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .slice(0, 6);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const store = join(tmp, 'by-path.sqlite');
    const controller = new AbortController();
    const first = await runCliInProcess(['bench', '--dataset', file, '--store', store], {
      env,
      signal: controller.signal,
      onStderr: (text) => {
        if (text.includes('progress:')) controller.abort();
      },
    });
    const id = /--resume (\S+)/.exec(first.stderr)?.[1] ?? /run (\S+) saved/.exec(first.stderr)?.[1];
    expect(id).toBeDefined();
    // Resume with the file edited: refused, naming the change.
    writeFileSync(file, `${lines.slice(0, 5).join('\n')}\n${lines[5]!.replace('"', ' "')}\n`);
    const refused = await runCliInProcess(['bench', '--resume', id!, '--store', store], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/dataset file content: stored sha256 [0-9a-f]{12}…/);
    // Put it back: `--resume RUN` alone finds the file from the stored path.
    writeFileSync(file, `${lines.join('\n')}\n`);
    const resumed = await runCliInProcess(['bench', '--resume', id!, '--store', store], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
  });
});

describe('serve on a port in use or with values it cannot take', () => {
  it('says a port is in use or a host does not resolve (exit 1, as its help says), and refuses timer-overflowing latencies and header-breaking values', async () => {
    const busy = createServer();
    const port = await listen(busy);
    try {
      const r = await runCliInProcess(['serve', '--port', String(port)], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use: pick another with --port (0 picks a free one)`);
      expect(r.stderr).not.toContain('internal error');
      expect(r.stderr).not.toContain('--help');
    } finally {
      busy.close();
    }
    const help = await runCliInProcess(['serve', '--help'], { env });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('1 cannot listen');
    const host = await runCliInProcess(['serve', '--host', 'nosuchhost.invalid', '--port', '0'], { env });
    expect(host.code).toBe(1);
    expect(host.stderr).toBe(
      'decidekit serve: cannot listen on nosuchhost.invalid: the host name does not resolve (check --host)\n',
    );
    const latency = await runCliInProcess(['serve', '--port', '0', '--latency-ms', '99999999999'], { env });
    expect(latency.code).toBe(2);
    expect(latency.stderr).toContain('--latency-ms "99999999999" is not valid');
    const header = await runCliInProcess(['serve', '--port', '0', '--retry-after', '1\r\nX: y'], { env });
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('--retry-after contains a line break');
  });
});
