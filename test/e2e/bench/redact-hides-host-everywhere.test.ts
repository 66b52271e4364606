/**
 * `--redact` hides the server's host from everything a command given it writes: standard
 * output, standard error and every file of `--out`, in every format. The real CLI in
 * process, the real reference server on 127.0.0.1, a real SQLite store; each output is
 * searched for the host.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-redact-');
const store = join(tmp, 'runs.sqlite');
const cli = (argv: string[]) => runCliInProcess(argv, { columns: 200, cwd: tmp, env: { XDG_DATA_HOME: tmp } });
const HOST = '127.0.0.1';
let server: ReferenceServer;
let runA = '';
let runB = '';

/** Every place the host shows in a command's outputs and the files it wrote, by name. */
function hostsIn(result: CliResult, files: readonly string[] = []): string[] {
  const found: string[] = [];
  if (result.stdout.includes(HOST)) found.push('stdout');
  if (result.stderr.includes(HOST)) found.push('stderr');
  for (const f of files) if (readFileSync(f, 'utf8').includes(HOST)) found.push(f);
  return found;
}

function filesIn(dir: string): string[] {
  return readdirSync(dir).map((name) => join(dir, name));
}

beforeAll(async () => {
  server = await startReferenceServer({ host: HOST, port: 0 });
  expect(server.url).toContain(HOST);
  for (const label of ['a', 'b']) {
    const r = await cli(['bench', '--base-url', server.url, '--limit', '3', '--store', store, '--label', label]);
    expect(r.code, r.stderr).toBe(0);
    // Without --redact the host is there to find: the search below can fail.
    expect(r.stdout).toContain(HOST);
  }
  const list = JSON.parse((await cli(['runs', 'list', '--json', '--store', store])).stdout) as {
    runs: { id: string; label: string }[];
  };
  runA = list.runs.find((r) => r.label === 'a')!.id;
  runB = list.runs.find((r) => r.label === 'b')!.id;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('--redact', () => {
  it('bench --redact --no-store --out writes no host into stdout, stderr or any report file', async () => {
    const out = join(tmp, 'red');
    const r = await cli([
      'bench',
      '--base-url',
      server.url,
      '--redact',
      '--no-store',
      '--limit',
      '3',
      '--out',
      `${out}/`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const files = filesIn(out);
    expect(files.map((f) => f.replace(/.*\./, '')).sort()).toEqual(['html', 'json', 'md']);
    expect(hostsIn(r, files)).toEqual([]);
    const json = JSON.parse(
      readFileSync(
        files.find((f) => f.endsWith('.json'))!,
        'utf8',
      ),
    );
    expect(json.config.endpoint).toMatchObject({ host: '<redacted>', path: '/v1/systemone' });
  });

  it('bench --redact --json prints no host on stdout or stderr', async () => {
    const r = await cli(['bench', '--base-url', server.url, '--redact', '--no-store', '--limit', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).config.endpoint.host).toBe('<redacted>');
    expect(hostsIn(r)).toEqual([]);
  });

  it('bench --redact that stops (nothing listening) names no host in its stop message', async () => {
    const gone = await startReferenceServer({ host: HOST, port: 0 });
    const url = gone.url;
    await gone.close();
    const r = await cli(['bench', '--base-url', url, '--redact', '--no-store', '--limit', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stopped: nothing is listening at <redacted>:\d+/);
    expect(hostsIn(r)).toEqual([]);
  });

  it('report --redact shows no host in any format, on stdout or in its file', async () => {
    for (const format of ['terminal', 'markdown', 'json', 'html']) {
      const printed = await cli(['report', runA, '--redact', '--format', format, '--store', store]);
      expect(printed.code, printed.stderr).toBe(0);
      expect(hostsIn(printed), format).toEqual([]);
      const file = join(tmp, `report-${format}.out`);
      const written = await cli(['report', runA, '--redact', '--format', format, '--out', file, '--store', store]);
      expect(written.code, written.stderr).toBe(0);
      expect(hostsIn(written, [file]), format).toEqual([]);
    }
  });

  it('runs show and runs list --redact show no host, as text or JSON', async () => {
    for (const argv of [
      ['runs', 'show', runA],
      ['runs', 'show', runA, '--json'],
      ['runs', 'list'],
      ['runs', 'list', '--json'],
    ]) {
      const r = await cli([...argv, '--redact', '--store', store]);
      expect(r.code, r.stderr).toBe(0);
      expect(hostsIn(r), argv.join(' ')).toEqual([]);
    }
  });

  it('runs compare --redact shows no host, as text, JSON or an HTML page', async () => {
    const page = join(tmp, 'compare.html');
    for (const extra of [[], ['--json'], ['--format', 'html'], ['--format', 'html', '--out', page]]) {
      const r = await cli(['runs', 'compare', runA, runB, '--redact', ...extra, '--store', store]);
      expect(r.code, r.stderr).toBe(0);
      expect(hostsIn(r, extra.includes('--out') ? [page] : []), extra.join(' ')).toEqual([]);
    }
  });
});
