/**
 * End to end: a base URL that carries a user and password (`http://admin:SECRET@host:port`)
 * is handled the same way by every command that talks to a server: the credentials are taken
 * out of the URL before any request or message, sent as `Authorization: Basic`, and never
 * printed, stored or written into a report. The server here is a real loopback gate that
 * refuses any request without that header and passes the rest to the real reference server.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startLoopbackGate } from '../../support/loopback-gate.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-credentials-');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

const PASSWORD = 'SECRET-hunter2';
const BASIC = Buffer.from(`admin:${PASSWORD}`).toString('base64');
const env = { XDG_DATA_HOME: join(tmp, 'xdg'), XDG_CACHE_HOME: join(tmp, 'cache') };

interface Gate {
  /** The gate's base URL with the user and password in it. */
  readonly url: string;
  /** Paths of the requests that came with the right `Authorization: Basic`. */
  readonly allowed: string[];
  /** Requests refused for a missing or wrong credential. */
  readonly refused: string[];
}

/** A loopback server that answers 401 without the Basic credential and passes the rest to a reference server. */
async function gatedServer(model: string): Promise<Gate> {
  const upstream = await startReferenceServer({ host: '127.0.0.1', port: 0, model, metrics: true, priorTable: null });
  closers.push(() => upstream.close());
  const allowed: string[] = [];
  const refused: string[] = [];
  const plain = await startLoopbackGate(
    upstream.url,
    (req) => {
      const path = (req.url ?? '').replace(/\?.*$/, '');
      if (req.headers.authorization !== `Basic ${BASIC}`) {
        refused.push(path);
        return { status: 401, message: 'unauthorized' };
      }
      allowed.push(path);
      return null;
    },
    closers,
  );
  return { url: plain.replace('http://', `http://admin:${PASSWORD}@`), allowed, refused };
}

/** Every file under `folder`, read as bytes and as text. */
function filesUnder(folder: string): { path: string; text: string }[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { path, text: readFileSync(path).toString('latin1') };
    });
}

function expectNoSecret(where: string, text: string): void {
  expect(text, where).not.toContain(PASSWORD);
  expect(text, where).not.toContain(BASIC);
  expect(text, where).not.toContain('admin:');
}

describe('a base URL with a user and password', () => {
  it('probe: sends them as Basic on every route, is conformant, and shows or keeps them nowhere', async () => {
    const gate = await gatedServer('heuristic');
    const folder = join(tmp, 'probe');
    const r = await runCliInProcess(
      ['probe', '--base-url', gate.url, '--cases', '3', '--store', join(folder, 'store.sqlite'), '--out', folder],
      { env, cwd: ROOT },
    );
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toContain('Verdict: conformant (20/20 checks pass)');
    expect(r.code).toBe(0);
    expect(gate.refused).toEqual([]);
    expect(gate.allowed).toEqual(expect.arrayContaining(['/health', '/v1/models', '/v1/systemone']));
    expectNoSecret('stdout', r.stdout);
    expectNoSecret('stderr', r.stderr);
    const files = filesUnder(folder);
    expect(files.filter((f) => /\.(json|md|html)$/.test(f.path))).toHaveLength(3);
    for (const f of files) expectNoSecret(f.path, f.text);

    const shown = await runCliInProcess(['runs', 'list', '--store', join(folder, 'store.sqlite')], { env, cwd: ROOT });
    expectNoSecret('runs list', shown.stdout);
  });

  it('bench: sends them as Basic and shows or keeps them nowhere', async () => {
    const gate = await gatedServer('heuristic');
    const folder = join(tmp, 'bench');
    const r = await runCliInProcess(
      ['bench', '--base-url', gate.url, '--limit', '3', '--store', join(folder, 'store.sqlite'), '--out', folder],
      { env, cwd: ROOT },
    );
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Requests                 3 sent, 3 answered, 0 failed');
    expect(gate.refused).toEqual([]);
    expectNoSecret('stdout', r.stdout);
    expectNoSecret('stderr', r.stderr);
    for (const f of filesUnder(folder)) expectNoSecret(f.path, f.text);
  });

  it('bench: a refused or missing user and password are said as such, and how to give them', async () => {
    const gate = await gatedServer('heuristic');
    const wrong = gate.url.replace(PASSWORD, 'not-the-password');
    const refused = await runCliInProcess(['bench', '--base-url', wrong, '--limit', '2', '--no-store'], {
      env,
      cwd: ROOT,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(the user and password in the base URL were refused; check them)');
    expect(refused.stderr).not.toContain('not-the-password');
    const bare = gate.url.replace(`admin:${PASSWORD}@`, '');
    const missing = await runCliInProcess(['bench', '--base-url', bare, '--limit', '2', '--no-store'], {
      env,
      cwd: ROOT,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      "no API key was configured; pass --api-key or set the environment variable, or give the server's user and password in --base-url",
    );
  });

  it('live: sends them as Basic to the decide route and /metrics and shows or records them nowhere', async () => {
    const gate = await gatedServer('heuristic');
    const record = join(tmp, 'session.jsonl');
    const controller = new AbortController();
    const r = await runCliInProcess(['live', '--base-url', gate.url, '--interval', '0', '--json', '--record', record], {
      env,
      cwd: tmp,
      signal: controller.signal,
      onStdout: (text) => {
        if (text.split('\n').length > 4) controller.abort();
      },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(130);
    expect(gate.refused).toEqual([]);
    expect(gate.allowed).toEqual(expect.arrayContaining(['/v1/systemone', '/metrics']));
    const polls = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status?: string });
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expectNoSecret('stdout', r.stdout);
    expectNoSecret('stderr', r.stderr);
    expectNoSecret('record', readFileSync(record, 'latin1'));
  });

  it('live: a --metrics-url with them that cannot be used is refused without showing them', async () => {
    const r = await runCliInProcess(['live', '--metrics-url', `ftp://admin:${PASSWORD}@127.0.0.1:9/metrics`], {
      env,
      cwd: tmp,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--metrics-url "ftp://127.0.0.1:9/metrics" is not an http(s) URL');
    expectNoSecret('stderr', r.stderr);
  });

  it('audit: a judge that wants credentials none were given for says how to give a judge its own', async () => {
    const gate = await gatedServer('judge');
    const bare = gate.url.replace(`admin:${PASSWORD}@`, '');
    const r = await runCliInProcess(['audit', '--base-url', bare, '--no-store'], { env, cwd: ROOT });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "(no judge key was configured: set DECIDEKIT_JUDGE_API_KEY, or give the judge's user and password in --base-url)",
    );
    // audit has no --api-key: the judge's key has a variable of its own.
    expect(r.stderr).not.toContain('--api-key');
  });

  it('audit: a judge URL with them is asked with Basic and shown or kept nowhere', async () => {
    const gate = await gatedServer('judge');
    const folder = join(tmp, 'audit');
    const r = await runCliInProcess(
      [
        'audit',
        '--base-url',
        gate.url,
        '--model',
        'judge',
        '--store',
        join(folder, 'store.sqlite'),
        '--out',
        join(folder, 'out'),
      ],
      { env, cwd: ROOT },
    );
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toContain("Cohen's kappa");
    expect(gate.refused).toEqual([]);
    expect(gate.allowed.length).toBeGreaterThan(0);
    expectNoSecret('stdout', r.stdout);
    expectNoSecret('stderr', r.stderr);
    for (const f of filesUnder(folder)) expectNoSecret(f.path, f.text);
  });
});
