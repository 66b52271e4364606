import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatasetFetchError } from './dataset-errors.js';
import { fetchTypedDecisions, networkError } from './fetch-typed-decisions.js';
import { loadBenchDataset, typedDecisionsCacheDir } from './load-bench-dataset.js';
import { PINNED_PARQUET_SHA256, PINNED_REVISION } from './provenance.js';
import { sampleRows, typedDecisionsParquet } from './test-support/typed-decisions-parquet.js';
import { tempFoldersRemovedAfterEach } from '../test-support/temp-folders.js';

const OTHER_REVISION = '0123456789abcdef0123456789abcdef01234567';
let parquet: Buffer;
let parquetSha256: string;
const testRows = sampleRows('test').slice(0, 8);

beforeAll(() => {
  const train = sampleRows('train').slice(0, 4);
  parquet = Buffer.from(
    typedDecisionsParquet([
      ...testRows.map((r) => ({ ...r, split: 'test' })),
      ...train.map((r) => ({ ...r, split: 'train' })),
    ]),
  );
  parquetSha256 = createHash('sha256').update(parquet).digest('hex');
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const freshCacheDir = tempFoldersRemovedAfterEach('decidekit-cache-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(handler: Handler): Promise<{ baseUrl: string; requests: string[] }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => void server.closeAllConnections());
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

function serveFile(body: Buffer): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    res.end(body);
  };
}

function cacheDir(): string {
  return freshCacheDir();
}

/** The cache folder as it was before the fetch: no copy, no temp files, no folder made for them. */
function expectEmptyCache(dir: string): void {
  expect(readdirSync(dir)).toEqual([]);
}

async function fetchError(promise: Promise<unknown>): Promise<DatasetFetchError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DatasetFetchError);
  return err as DatasetFetchError;
}

describe('fetchTypedDecisions', () => {
  it('downloads the parquet path of the revision, verifies it, and stores the file itself with a manifest', async () => {
    const { baseUrl, requests } = await serve(serveFile(parquet));
    const dir = cacheDir();
    const progress: number[] = [];
    const result = await fetchTypedDecisions({
      cacheDir: dir,
      fetch: globalThis.fetch,
      baseUrl,
      revision: OTHER_REVISION,
      sha256: parquetSha256,
      onProgress: (p) => progress.push(p.receivedBytes),
    });
    expect(requests).toEqual([
      `/datasets/LocalLLaMA/typed-decisions/resolve/${OTHER_REVISION}/all/test-00000-of-00001.parquet`,
    ]);
    expect(progress.at(-1)).toBe(parquet.length);
    expect(result.warnings).toEqual([
      `the file is not the pinned Typed Decisions file (sha256 ${PINNED_PARQUET_SHA256.slice(0, 12)}…): the copy loads as a custom dataset, never as Typed Decisions`,
    ]);
    expect(result.cases).toBe(testRows.length);
    expect(result.dir).toBe(typedDecisionsCacheDir(dir, OTHER_REVISION));
    expect(readdirSync(result.dir).sort()).toEqual(['manifest.json', 'test-00000-of-00001.parquet']);
    expect(readFileSync(join(result.dir, 'test-00000-of-00001.parquet'))).toEqual(parquet);
    const manifest = JSON.parse(readFileSync(join(result.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      id: 'LocalLLaMA/typed-decisions',
      revision: OTHER_REVISION,
      license: 'Apache-2.0',
      synthetic: false,
      source: { path: 'all/test-00000-of-00001.parquet', sha256: parquetSha256, sha256_pinned: true },
      files: [
        {
          split: 'test',
          path: 'test-00000-of-00001.parquet',
          sha256: parquetSha256,
          bytes: parquet.length,
          rows: testRows.length + 4,
        },
      ],
      restore: `decidekit dataset fetch typed-decisions --revision ${OTHER_REVISION}`,
    });

    const loaded = await loadBenchDataset({ kind: 'path', path: result.dir });
    expect(loaded.cases.map((c) => c.id)).toEqual(testRows.map((r) => r.id));
    // Not the pinned file: what the manifest says does not make it Typed Decisions.
    expect(loaded.info).toMatchObject({ id: 'test-00000-of-00001.parquet', revision: null, split: 'test' });
    expect(loaded.info.attribution).toContain('its manifest names LocalLLaMA/typed-decisions, but its files do not');
    expect(JSON.stringify(loaded.cases)).not.toContain('hidden-');
  });

  it('stores the pinned revision where loadBenchDataset({kind: typed-decisions}) finds it, following redirects', async () => {
    const { baseUrl, requests } = await serve((req, res) => {
      if (req.url?.startsWith('/datasets/')) {
        res.writeHead(302, { location: '/cdn/blob' });
        res.end();
      } else serveFile(parquet)(req, res);
    });
    const dir = cacheDir();
    // --sha256 stands in for the pinned hash, which only the real file has.
    await fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, sha256: parquetSha256 });
    expect(requests).toEqual([
      `/datasets/LocalLLaMA/typed-decisions/resolve/${PINNED_REVISION}/all/test-00000-of-00001.parquet`,
      '/cdn/blob',
    ]);
    const loaded = await loadBenchDataset({ kind: 'typed-decisions', cacheDir: dir });
    expect(loaded.cases).toHaveLength(testRows.length);
  });

  it('leaves no folder it made for a fetch that fails, up to a cache root that did not exist', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    const dir = cacheDir();
    const root = join(dir, 'not', 'yet');
    await fetchError(fetchTypedDecisions({ cacheDir: root, fetch: globalThis.fetch, baseUrl }));
    expect(existsSync(join(dir, 'not'))).toBe(false);
  });

  it('rejects a file whose sha256 is not the pinned one and keeps nothing', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    const dir = cacheDir();
    const err = await fetchError(fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl }));
    expect(err.message).toBe(
      `downloaded file has the wrong sha256: ${parquetSha256}, expected ${PINNED_PARQUET_SHA256} (${baseUrl}/datasets/LocalLLaMA/typed-decisions/resolve/${PINNED_REVISION}/all/test-00000-of-00001.parquet; the pinned hash of this revision); nothing was saved`,
    );
    expectEmptyCache(dir);
  });

  it('records the observed hash of an unpinned revision with a warning', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    const result = await fetchTypedDecisions({
      cacheDir: cacheDir(),
      fetch: globalThis.fetch,
      baseUrl,
      revision: 'main',
    });
    expect(result.warnings).toEqual([
      `no pinned sha256 for revision main: recorded the observed sha256 ${parquetSha256} without checking it (pass --sha256 to check it)`,
      expect.stringMatching(/^the file is not the pinned Typed Decisions file .*: the copy loads as a custom dataset/),
    ]);
    expect(result.manifest.source).toMatchObject({ sha256: parquetSha256, sha256Pinned: false });
  });

  it('reports a connection closed mid-body as a truncated download and keeps nothing', async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(parquet.length) });
      res.write(parquet.subarray(0, 1000), () => res.socket?.destroy());
    });
    const dir = cacheDir();
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, sha256: parquetSha256 }),
    );
    expect(err.message).toMatch(
      new RegExp(
        `^download truncated: the connection closed after \\d+ of ${parquet.length} bytes \\(.*\\); nothing was saved, try again$`,
      ),
    );
    expectEmptyCache(dir);
  });

  it('reports a body shorter than its Content-Length as truncated', async () => {
    const { baseUrl } = await serve((req) => {
      // A raw response that claims more than it sends, then closes the connection cleanly.
      const head = Buffer.from(
        `HTTP/1.1 200 OK\r\ncontent-length: ${parquet.length + 500}\r\nconnection: close\r\n\r\n`,
      );
      req.socket.end(Buffer.concat([head, parquet]));
    });
    const dir = cacheDir();
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, sha256: parquetSha256 }),
    );
    expect(err.message).toMatch(/^download truncated: /);
    expect(err.message).toContain(`of ${parquet.length + 500} bytes`);
    expectEmptyCache(dir);
  });

  it('refuses a Content-Length over the cap before reading the body, and keeps nothing', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    const dir = cacheDir();
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, maxBytes: parquet.length - 1 }),
    );
    expect(err.message).toMatch(
      new RegExp(`^download refused: .* sends ${parquet.length} bytes, more than the ${parquet.length - 1} expected`),
    );
    expectEmptyCache(dir);
  });

  it('stops a body without Content-Length once it passes the cap', async () => {
    let sent = 0;
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    const dir = cacheDir();
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, maxBytes: 1024 * 1024 }),
    );
    expect(err.message).toMatch(/^download refused: .* sends more than 1048576 bytes/);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expectEmptyCache(dir);
  });

  it('gives up on a body that stalls, and keeps nothing', async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(parquet.length) });
      res.write(parquet.subarray(0, 1000));
    });
    const dir = cacheDir();
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, stallTimeoutMs: 200 }),
    );
    expect(err.message).toMatch(/^download stalled: no data for 0.2 s after 1000 bytes/);
    expectEmptyCache(dir);
  });

  it('removes the partial download as soon as the signal fires, before the promise settles', async () => {
    let started: () => void = () => {};
    const firstBytes = new Promise<void>((resolve) => (started = resolve));
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(parquet.length) });
      res.write(parquet.subarray(0, 1000), () => started());
    });
    const dir = cacheDir();
    const controller = new AbortController();
    const pending = fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl, signal: controller.signal });
    await firstBytes;
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(join(dir, 'typed-decisions')).filter((f) => f.startsWith('.fetch-'))).toHaveLength(1);
    controller.abort(new Error('SIGINT'));
    // Synchronously after the abort: what a process ending right now would leave behind.
    expectEmptyCache(dir);
    expect((await fetchError(pending)).message).toMatch(/^download cancelled/);
  });

  it('says a missing revision is not found', async () => {
    const { baseUrl } = await serve((_req, res) => {
      res.writeHead(404);
      res.end('Revision Not Found');
    });
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: cacheDir(), fetch: globalThis.fetch, baseUrl, revision: OTHER_REVISION }),
    );
    expect(err.message).toMatch(
      /^download failed: HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/datasets\/.* \(no such revision or file; check revision\)$/,
    );
    // The option of the call, which the command line spells as its flag.
    expect(err.words).toContainEqual({ option: 'revision' });
  });

  it('tells an offline user how to supply the file by path', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    // Close the server so the port refuses connections.
    for (const c of cleanups.splice(0).reverse()) await c();
    const dir = cacheDir();
    const err = await fetchError(fetchTypedDecisions({ cacheDir: dir, fetch: globalThis.fetch, baseUrl }));
    expect(err.message).toMatch(
      /^cannot download: nothing is listening at 127\.0\.0\.1:\d+ \(the connection was refused; is the address right, and its server running\?\)\. To use Typed Decisions without the network, download all\/test-00000-of-00001\.parquet from https:\/\/huggingface\.co\/datasets\/LocalLLaMA\/typed-decisions on a machine that is online and run `decidekit bench --dataset test-00000-of-00001\.parquet` in the folder that holds it \(its sha256 is checked\)$/,
    );
    expect(err.message).not.toContain('offline');
    expectEmptyCache(dir);
  });

  it("sends a mirror URL's user and password as Authorization, never in the URL it fetches or shows", async () => {
    const headers: (string | undefined)[] = [];
    const { baseUrl } = await serve((req, res) => {
      headers.push(req.headers.authorization);
      res.writeHead(400);
      res.end();
    });
    const seen: string[] = [];
    const spy: typeof globalThis.fetch = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: cacheDir(), fetch: spy, baseUrl: baseUrl.replace('//', '//us%C3%A9r:p%40ss@') }),
    );
    expect(headers).toEqual([`Basic ${Buffer.from('usér:p@ss').toString('base64')}`]);
    expect(seen.join(' ')).not.toMatch(/us%C3%A9r|p%40ss|@/);
    expect(err.message).not.toMatch(/us%C3%A9r|p%40ss/);
    expect(JSON.stringify(err)).not.toContain('p%40ss');
  });

  it('refuses a mirror that is not an http URL before anything is sent', async () => {
    const err = await fetchTypedDecisions({ cacheDir: cacheDir(), fetch: globalThis.fetch, baseUrl: 'ftp://x' }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('the mirror "ftp:…" is not an http or https URL (expected e.g. https://huggingface.co)');
  });

  it('says a port that fetch never connects to is one, not that the user is offline', async () => {
    const err = await fetchError(
      fetchTypedDecisions({ cacheDir: cacheDir(), fetch: globalThis.fetch, baseUrl: 'http://127.0.0.1:1' }),
    );
    expect(err.message).toMatch(
      /^cannot download from 127\.0\.0\.1:1: port 1 is one that fetch never connects to \(it is kept for other protocols\); give the mirror another port\. To use/,
    );
    expect(err.message).not.toMatch(/offline|bad port/);
  });

  it('names a DNS failure', () => {
    const dns = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' }),
    });
    expect(networkError('https://huggingface.co/x', dns).message).toMatch(
      /^cannot reach huggingface\.co \(host not found\); are you offline\? .*run `decidekit bench --dataset test-00000-of-00001\.parquet` in the folder that holds it \(/,
    );
  });

  it('replaces an earlier copy of the same revision', async () => {
    const { baseUrl } = await serve(serveFile(parquet));
    const dir = cacheDir();
    const first = await fetchTypedDecisions({
      cacheDir: dir,
      fetch: globalThis.fetch,
      baseUrl,
      revision: OTHER_REVISION,
      sha256: parquetSha256,
    });
    const second = await fetchTypedDecisions({
      cacheDir: dir,
      fetch: globalThis.fetch,
      baseUrl,
      revision: OTHER_REVISION,
      sha256: parquetSha256,
    });
    expect(second.dir).toBe(first.dir);
    expect(readdirSync(join(dir, 'typed-decisions'))).toEqual([encodeURIComponent(OTHER_REVISION)]);
  });

  it('rejects a revision that could escape the cache folder or the URL path', async () => {
    await expect(
      fetchTypedDecisions({ cacheDir: cacheDir(), fetch: globalThis.fetch, revision: '../../etc' }),
    ).rejects.toThrow('invalid revision "../../etc" (expected a commit hash, branch or tag)');
    await expect(fetchTypedDecisions({ cacheDir: cacheDir(), fetch: globalThis.fetch, sha256: 'abc' })).rejects.toThrow(
      'invalid sha256 "abc" (expected 64 hex digits)',
    );
  });
});
