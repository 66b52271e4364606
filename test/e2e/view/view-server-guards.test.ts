/**
 * `decidekit view` against a hostile or confused visitor: a request naming another host (DNS
 * rebinding) is refused in words, every page says what it may load, a model is reachable by
 * the plain name, a trace page past the end says so, and a bundle never mixes with old files.
 */
import { request } from 'node:http';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { Interruption } from '../../../src/cli/io.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { RAW_ERROR_CODE } from '../../support/raw-error-code.js';

const tmp = tempFolderRemovedAfterAll('dk-view-guards-');
const store = join(tmp, 'view.sqlite');
const cli = (argv: string[]) => runCliInProcess([...argv, '--store', store], { env: { XDG_DATA_HOME: tmp } });

let url = '';
let port = 0;
const stop = new AbortController();
let served: Promise<CliResult>;
let runId = '';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET to the server with the Host header given (fetch may not set it). */
function get(path: string, host = `127.0.0.1:${port}`): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const r = await cli(['bench', '--limit', '8', '--model', 'heuristic', '--label', 'one']);
  expect(r.code, r.stderr).toBe(0);
  const list = JSON.parse((await cli(['runs', 'list', '--json'])).stdout) as { runs: { id: string }[] };
  runId = list.runs[0]!.id;
  let started: () => void;
  const listening = new Promise<void>((resolve) => (started = resolve));
  served = runCliInProcess(['view', '--store', store, '--port', '0'], {
    env: { XDG_DATA_HOME: tmp },
    signal: stop.signal,
    onStdout: (text) => {
      if (text.includes('\n')) {
        url = text.split('\n')[0]!;
        port = Number(new URL(url).port);
        started();
      }
    },
  });
  await listening;
}, 120_000);

afterAll(async () => {
  stop.abort(new Interruption('SIGINT'));
  await served;
});

describe('decidekit view guards', () => {
  it('refuses a request naming another host, in words, and serves its own names', async () => {
    const evil = await get('/', 'evil.com');
    expect(evil.status).toBe(421);
    expect(evil.body).toContain('evil.com');
    expect(evil.body).not.toContain('<table');
    const evilPort = await get('/api/records', `evil.com:${port}`);
    expect(evilPort.status).toBe(421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`])
      expect((await get('/', host)).status, host).toBe(200);
    expect((await get('/', '127.0.0.1:1')).status).toBe(421);
  });

  it('says what a page may load: itself only, and no sniffing', async () => {
    const page = await get('/');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('shows a model by the plain name the list shows without its mark', async () => {
    const page = await get('/models/heuristic');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('holds no run of this model');
    expect(page.body).toContain(runId);
  });

  it('says a trace page past the end is past the last page, and links the last', async () => {
    const page = await get(`/runs/${runId}?page=999`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('past the last page (1)');
    expect(page.body).toContain('<a href="?#trace-section" id="trace-last">');
    expect(page.body).not.toContain('id="trace-prev"');
    expect(page.body).not.toContain('No decision passes the filters');
  });

  it('counts one run in the singular', async () => {
    const dir = join(tmp, 'one-run');
    const r = await cli(['view', '--bundle', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('(1 run, 0 comparisons)');
  });

  it('refuses a previous bundle holding a FIFO or a link where a page goes, and leaves every entry as it was', async () => {
    const dir = join(tmp, 'site-with-oddities');
    expect((await cli(['view', '--bundle', dir])).code).toBe(0);
    const runPage = readdirSync(dir).find((f) => f.startsWith('run-'))!;
    const victim = join(tmp, 'victim.txt');
    writeFileSync(victim, 'kept\n');
    rmSync(join(dir, 'index.html'));
    execFileSync('mkfifo', [join(dir, 'index.html')]);
    rmSync(join(dir, runPage));
    symlinkSync(victim, join(dir, runPage));
    const before = readdirSync(dir).sort();
    const r = await cli(['view', '--bundle', dir]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `--bundle ${dir}: ${join(dir, 'index.html')} is a FIFO (named pipe), not a regular file`,
    );
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
    expect(r.stdout).toBe('');
    expect(lstatSync(join(dir, 'index.html')).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, runPage)).isSymbolicLink()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('kept\n');
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('replaces a previous bundle whole, and refuses a folder holding other files', async () => {
    const dir = join(tmp, 'site');
    expect((await cli(['view', '--bundle', dir])).code).toBe(0);
    writeFileSync(join(dir, 'run-old.html'), 'stale');
    const again = await cli(['view', '--bundle', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(dir, 'run-old.html'))).toBe(false);
    expect(existsSync(join(dir, 'index.html'))).toBe(true);

    const other = join(tmp, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const refused = await cli(['view', '--bundle', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(other);
    expect(refused.stderr).toContain('not empty');
    expect(refused.stderr).not.toMatch(/ENOTEMPTY|at .*\.js:\d+/);
    expect(readdirSync(other)).toEqual(['notes.txt']);
  });
});
