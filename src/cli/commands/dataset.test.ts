/**
 * End-to-end: the real CLI (`runCli` in process, on the current source) on the bundled
 * sample, damaged copies, user files, and a download from a loopback server.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../test-support/in-process-cli.js';
import { sampleDir } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { PINNED_PARQUET_SHA256, PINNED_REVISION } from '../../datasets/typed-decisions/provenance.js';
import { nonSnakeKeys } from '../../reports/test-support/json-keys.js';
import {
  sampleRows,
  typedDecisionsParquet,
} from '../../datasets/typed-decisions/test-support/typed-decisions-parquet.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';
import { RAW_ERROR_CODE } from '../../../test/support/raw-error-code.js';

const dir = tempFolderRemovedAfterAll('decidekit-dataset-e2e-');
let server: Server;
let hfEndpoint: string;
let parquet: Buffer;
let parquetSha256: string;

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCliInProcess(args, {
    cwd: dir,
    env: { XDG_CACHE_HOME: join(dir, 'cache'), HF_ENDPOINT: hfEndpoint, ...env },
  });
}

beforeAll(async () => {
  parquet = Buffer.from(
    typedDecisionsParquet(
      sampleRows('test')
        .slice(0, 12)
        .map((r) => ({ ...r, split: 'test' })),
    ),
  );
  parquetSha256 = createHash('sha256').update(parquet).digest('hex');
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(parquet.length) });
    res.end(parquet);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hfEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** A server on 127.0.0.1 for one test, closed after all; its base URL. */
async function loopbackServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const one = createServer(handler);
  await new Promise<void>((resolve) => one.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(one.address() as AddressInfo).port}`;
  extraServers.set(url, one);
  return url;
}

async function closeServer(url: string): Promise<void> {
  const one = extraServers.get(url)!;
  extraServers.delete(url);
  one.closeAllConnections();
  await new Promise<void>((resolve) => one.close(() => resolve()));
}

const extraServers = new Map<string, Server>();

afterAll(async () => {
  for (const url of [...extraServers.keys()]) await closeServer(url);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe.concurrent('decidekit dataset info', () => {
  it('describes the sample as synthetic with its contents, and says Typed Decisions is not fetched', async () => {
    const r = await cli(['dataset', 'info']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'decidekit/typed-decisions-synthetic-sample  (SYNTHETIC: not Typed Decisions data or scores)',
    );
    expect(r.stdout).toContain(
      'workflows    agent_trace_observability 25, customer_service 25, invoice_processing 25, security_incidents 25',
    );
    expect(r.stdout).toContain('questions    noul 150, choice 150, score 200');
    expect(r.stdout).toContain('typed-decisions: not fetched. Typed Decisions is not in the cache');
  });

  it('prints one JSON document', async () => {
    const r = await cli(['dataset', 'info', 'sample', '--split', 'train', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.datasets).toHaveLength(1);
    expect(doc.datasets[0]).toMatchObject({
      target: 'sample',
      cases: 200,
      decisions: 1000,
      dataset: { synthetic: true, split: 'train' },
    });
    expect(Object.values(doc.datasets[0].cases_by_workflow).reduce((a: number, b) => a + (b as number), 0)).toBe(200);
    expect(doc.not_fetched).toEqual([]);
    expect(nonSnakeKeys(doc, ['cases_by_workflow'])).toEqual([]);
  });

  it('takes an unknown split for a typo: lists the splits there are, with a did-you-mean, exit 2', async () => {
    const dev = await cli(['dataset', 'info', 'sample', '--split', 'dev']);
    expect(dev.code).toBe(2);
    expect(dev.stderr).toContain('no split "dev" in ');
    expect(dev.stderr).toContain('(its splits: test, train)');
    expect(dev.stderr).not.toContain('reinstall');
    expect(dev.stderr).not.toContain('integrity');
    const typo = await cli(['dataset', 'info', 'sample', '--split', 'tset']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(its splits: test, train; did you mean test?)');
  });

  it('fails with the fetch hint when typed-decisions is asked for and not cached', async () => {
    const r = await cli(['dataset', 'info', 'typed-decisions']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('decidekit dataset info: Typed Decisions is not in the cache');
    expect(r.stderr).toContain('decidekit dataset fetch typed-decisions');
  });
});

describe.concurrent('decidekit dataset verify', () => {
  it('passes the bundled sample and skips an unfetched copy', async () => {
    const r = await cli(['dataset', 'verify']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ok {6}sample: decidekit\/typed-decisions-synthetic-sample @ synthetic-\d+-[0-9a-f]{12}: test 100 cases, train 200 cases; matches its manifest/m,
    );
    expect(r.stdout).toContain('skipped typed-decisions: not fetched');
  });

  it('fails a damaged copy with exit 1 and says how to restore it', async () => {
    const copy = join(dir, 'damaged');
    cpSync(sampleDir(), copy, { recursive: true });
    truncateSync(join(copy, 'train.jsonl'), 1000);
    const r = await cli(['dataset', 'verify', 'damaged', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.results[0].status).toBe('failed');
    expect(doc.results[0].error).toContain(
      `dataset integrity check failed: ${join(copy, 'train.jsonl')} is truncated: 1000 of`,
    );
    expect(doc.results[0].error).toContain('(restore it: reinstall decidekit');
  });

  it('fails a user file with a bad row, naming file, line and case', async () => {
    const rows = sampleRows('test').slice(0, 3) as any[];
    rows[2].gold.risk.probabilities['9'] = 0;
    writeFileSync(join(dir, 'mine.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const r = await cli(['dataset', 'verify', 'mine.jsonl']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAILED  mine.jsonl: ${join(dir, 'mine.jsonl')}:3 case ${rows[2].id}: question risk: gold has unknown answer "9" (answers: 0, 1, 2, 3)`,
    );
  });
});

describe.concurrent('decidekit dataset fetch', () => {
  it('refuses a download whose sha256 is not the pinned one, leaving nothing', async () => {
    const r = await cli(['dataset', 'fetch', 'typed-decisions', '--cache-dir', 'c1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `decidekit dataset fetch: downloaded file has the wrong sha256: ${parquetSha256}, expected ${PINNED_PARQUET_SHA256}`,
    );
    expect(existsSync(join(dir, 'c1'))).toBe(false);
    const verify = await cli(['dataset', 'verify', 'typed-decisions', '--cache-dir', 'c1']);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('FAILED  typed-decisions: Typed Decisions is not in the cache');
  });

  it('fetches with an expected hash, then info and verify read the cached copy', async () => {
    const r = await cli(['dataset', 'fetch', 'typed-decisions', '--sha256', parquetSha256, '--cache-dir', 'c2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`fetched LocalLLaMA/typed-decisions revision ${PINNED_REVISION}: 12 test cases`);
    const info = await cli(['dataset', 'info', 'typed-decisions', '--cache-dir', 'c2', '--json']);
    expect(info.code).toBe(0);
    const doc = JSON.parse(info.stdout);
    // The hash given with --sha256 is not the pinned one: the copy is a custom dataset.
    expect(r.stderr).toContain('the copy loads as a custom dataset, never as Typed Decisions');
    expect(doc.datasets[0].dataset).toMatchObject({
      id: 'test-00000-of-00001.parquet',
      revision: null,
      split: 'test',
      synthetic: false,
    });
    expect(doc.datasets[0].source).toEqual({
      url: expect.any(String),
      path: 'all/test-00000-of-00001.parquet',
      sha256: parquetSha256,
      sha256_pinned: true,
    });
    const verify = await cli(['dataset', 'verify', 'typed-decisions', '--cache-dir', 'c2']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('ok      typed-decisions: test-00000-of-00001.parquet: test 12 cases');
    const stored = join(dir, 'c2', 'typed-decisions', PINNED_REVISION, 'test-00000-of-00001.parquet');
    writeFileSync(stored, readFileSync(stored).subarray(0, 100));
    const broken = await cli(['dataset', 'verify', 'typed-decisions', '--cache-dir', 'c2']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('is truncated: 100 of');
    expect(broken.stdout).toContain('(restore it: decidekit dataset fetch typed-decisions)');
  });

  it('takes a mirror URL with a user and password out of the URL, sends them as Authorization, and never shows them', async () => {
    const seen: (string | undefined)[] = [];
    const mirror = await loopbackServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== `Basic ${Buffer.from('admin:SECRET').toString('base64')}`) {
        res.writeHead(401);
        res.end('unauthorized');
        return;
      }
      res.writeHead(200, { 'content-length': String(parquet.length) });
      res.end(parquet);
    });
    const endpoint = mirror.replace('http://', 'http://admin:SECRET@');
    const r = await cli(['dataset', 'fetch', 'typed-decisions', '--sha256', parquetSha256, '--cache-dir', 'c-auth'], {
      HF_ENDPOINT: endpoint,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain('SECRET');
    const manifest = readFileSync(join(dir, 'c-auth', 'typed-decisions', PINNED_REVISION, 'manifest.json'), 'utf8');
    expect(manifest).not.toContain('SECRET');
    expect(manifest).not.toContain('admin');
  });

  it('says nothing is listening at a mirror whose port refuses, without the password or "are you offline?"', async () => {
    const closed = await loopbackServer(() => undefined);
    await closeServer(closed);
    const host = new URL(closed).host;
    const r = await cli(['dataset', 'fetch', 'typed-decisions', '--cache-dir', 'c-closed'], {
      HF_ENDPOINT: closed.replace('http://', 'http://admin:SECRET@'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing is listening at ${host}`);
    expect(r.stderr).not.toMatch(/SECRET|are you offline|fetch failed|credentials/);
    expect(r.stderr).not.toMatch(RAW_ERROR_CODE);
    expect(existsSync(join(dir, 'c-closed'))).toBe(false);
  });

  it('after an HTTP 400 gives a hint that works when pasted', async () => {
    const mirror = await loopbackServer((_req, res) => {
      res.writeHead(400);
      res.end('bad request');
    });
    const r = await cli(['dataset', 'fetch', 'typed-decisions', '--cache-dir', 'c-400'], { HF_ENDPOINT: mirror });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('download failed: HTTP 400');
    const hint = /`(decidekit [^`]+)`/.exec(r.stderr)?.[1];
    expect(hint, r.stderr).toBe('decidekit bench --dataset test-00000-of-00001.parquet');
    // A shell reads the hint's words as they are: no `<` or `>` it would take for a redirect.
    expect(hint).toMatch(/^[\w ./-]+$/);
    writeFileSync(join(dir, 'test-00000-of-00001.parquet'), parquet);
    const pasted = await cli([...hint!.split(' ').slice(1), '--limit', '2', '--no-store']);
    expect(pasted.code, pasted.stderr).toBe(0);
  });

  it('rejects wrong usage with exit 2', async () => {
    expect((await cli(['dataset', 'fetch'])).code).toBe(2);
    expect((await cli(['dataset', 'fetch', 'typed-decisions', '--sha256', 'xyz'])).code).toBe(2);
    const r = await cli(['dataset', 'frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown subcommand "frobnicate" (fetch, info, verify)');
  });
});
