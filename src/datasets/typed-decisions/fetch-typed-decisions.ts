/**
 * Downloads Typed Decisions' test parquet from Hugging Face, verifies its sha256 and every
 * row, and moves it with a manifest into the cache in one rename. The file is kept as it was
 * downloaded: a loader knows the real dataset by that file's pinned sha256, never by the
 * manifest (see dataset-identity.ts).
 * A failed download, a wrong hash or invalid data leaves nothing in the cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { networkReasonWords } from '../../core/network-error-words.js';
import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import { CaseCollector } from './case-collector.js';
import { DatasetFetchError } from './dataset-errors.js';
import { makeFolder, outermostMissingFolder, removeEmptyFolders } from '../folders.js';
import { isPinnedTypedDecisionsFile } from './dataset-identity.js';
import { fetchCommand, typedDecisionsCacheDir } from './load-bench-dataset.js';
import { MANIFEST_FILE, MANIFEST_FORMAT, renderManifest, type DatasetManifest } from './manifest.js';
import {
  DEFAULT_HF_BASE_URL,
  PARQUET_PATH,
  parquetDownloadUrl,
  pinnedParquetSha256,
  PINNED_PARQUET_SHA256,
  PINNED_REVISION,
  TYPED_DECISIONS_ID,
  TYPED_DECISIONS_LICENSE,
  TYPED_DECISIONS_URL,
  typedDecisionsAttribution,
} from './provenance.js';
import { decodeParquetRows } from './read-cases.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { benchOnDownloadedFileCommand, SHA256_FLAG } from '../../core/command-hints.js';
import { withoutCredentials } from '../../core/url-credentials.js';

export interface FetchProgress {
  readonly receivedBytes: number;
  /** From Content-Length; null when the server did not say. */
  readonly totalBytes: number | null;
}

export interface FetchTypedDecisionsOptions {
  /** The cache root; the copy goes to `<cacheDir>/typed-decisions/<revision>/`. */
  readonly cacheDir: string;
  readonly fetch: typeof globalThis.fetch;
  /** Dataset revision (a commit hash, or a branch or tag). Default: the pinned revision. */
  readonly revision?: string;
  /**
   * Expected sha256 of the parquet file. Default: the pinned hash for the pinned revision.
   * For another revision without it, the observed hash is recorded and a warning returned.
   */
  readonly sha256?: string;
  /** Default `https://huggingface.co` (tests point it at a loopback server). */
  readonly baseUrl?: string;
  readonly onProgress?: (progress: FetchProgress) => void;
  readonly signal?: AbortSignal;
  /** Most bytes the download may have; a larger Content-Length or body is refused (default DEFAULT_MAX_DOWNLOAD_BYTES). */
  readonly maxBytes?: number;
  /** Longest wait for the next piece of the body before giving up (default 30 000 ms). */
  readonly stallTimeoutMs?: number;
}

/**
 * Cap on the parquet download. The test split is a few MB; a mirror sending hundreds of MB
 * is wrong whatever its hash, and nothing should fill the disk before the hash is checked.
 * A fixed bound because neither the dataset source nor decidekit pins the file's size, only
 * its sha256 (a pinned size would give a tighter cap: that size plus a little slack).
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;

export interface FetchTypedDecisionsResult {
  /** The folder holding `manifest.json` and the downloaded parquet file. */
  readonly dir: string;
  readonly manifest: DatasetManifest;
  /** Test-split cases written. */
  readonly cases: number;
  readonly downloadedBytes: number;
  /** Things the user should know (an unpinned hash). */
  readonly warnings: readonly string[];
}

/** The downloaded file is kept as it is: its pinned sha256 is what makes the copy the real dataset. */
const DATA_FILE = basename(PARQUET_PATH);
const SPLIT = 'test';
/** Revisions are commit hashes, branches or tags; nothing that could escape a URL path segment or a folder. */
const REVISION = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,199}$/;

export async function fetchTypedDecisions(options: FetchTypedDecisionsOptions): Promise<FetchTypedDecisionsResult> {
  const revision = options.revision ?? PINNED_REVISION;
  if (!REVISION.test(revision) || revision.includes('..')) {
    throw new DecidekitError(
      'invalid_revision',
      `invalid revision ${JSON.stringify(revision)} (expected a commit hash, branch or tag)`,
    );
  }
  const given = options.sha256?.toLowerCase();
  if (given !== undefined && !/^[0-9a-f]{64}$/.test(given)) {
    throw new DecidekitError(
      'invalid_sha256',
      `invalid sha256 ${JSON.stringify(options.sha256)} (expected 64 hex digits)`,
    );
  }
  const pinned = pinnedParquetSha256(revision);
  const expected = given ?? pinned;
  // A mirror's user and password go as Authorization, never in the URL fetched or shown.
  const mirror = withoutCredentials(options.baseUrl ?? DEFAULT_HF_BASE_URL);
  refuseMirrorUrl(mirror.url);
  const url = parquetDownloadUrl(revision, mirror.url);
  const authorization = mirror.basicAuthorization;
  const finalDir = typedDecisionsCacheDir(options.cacheDir, revision);
  const parent = dirname(finalDir);
  // A failed fetch leaves the cache as it found it: also the folders made for the copy.
  const made = outermostMissingFolder(parent);
  await makeFolder(parent, 'cacheDir', 'the dataset cache');
  const tmp = await mkdtemp(join(parent, '.fetch-'));
  // On Ctrl+C the process may end before this function's `finally` runs: remove the partial
  // download at once, synchronously, when the signal fires.
  const removeTmp = () => {
    rmSync(tmp, { recursive: true, force: true });
    if (made !== null) removeEmptyFolders(parent, made);
  };
  options.signal?.addEventListener('abort', removeTmp, { once: true });
  try {
    const parquetPath = join(tmp, DATA_FILE);
    const download = await downloadTo(url, authorization, parquetPath, options);
    const warnings: string[] = [];
    if (expected !== null) {
      if (download.sha256 !== expected) {
        throw new DatasetFetchError(
          words`downloaded file has the wrong sha256: ${download.sha256}, expected ${expected} (${url}; ${given === undefined ? 'the pinned hash of this revision' : words`the hash given with ${option('sha256')}`}); nothing was saved`,
          { url, sha256: download.sha256, expected },
        );
      }
    } else {
      warnings.push(
        `no pinned sha256 for revision ${revision}: recorded the observed sha256 ${download.sha256} without checking it (pass ${SHA256_FLAG} to check it)`,
      );
    }
    if (!isPinnedTypedDecisionsFile(parquetPath, download.sha256))
      warnings.push(
        `the file is not the pinned Typed Decisions file (sha256 ${PINNED_PARQUET_SHA256.slice(0, 12)}…): the copy loads as a custom dataset, never as Typed Decisions`,
      );
    const rows = await validateSplit(parquetPath, revision);
    const manifest: DatasetManifest = {
      format: MANIFEST_FORMAT,
      id: TYPED_DECISIONS_ID,
      url: TYPED_DECISIONS_URL,
      revision,
      license: TYPED_DECISIONS_LICENSE,
      synthetic: false,
      attribution: typedDecisionsAttribution(revision),
      source: { url, path: PARQUET_PATH, sha256: download.sha256, sha256Pinned: expected !== null },
      generator: null,
      files: [{ split: SPLIT, path: DATA_FILE, sha256: download.sha256, bytes: download.bytes, rows: rows.total }],
      restore: fetchCommand(revision),
    };
    await writeFile(join(tmp, MANIFEST_FILE), renderManifest(manifest));
    await replaceDir(tmp, finalDir);
    return { dir: finalDir, manifest, cases: rows.cases, downloadedBytes: download.bytes, warnings };
  } finally {
    options.signal?.removeEventListener('abort', removeTmp);
    // After a success the copy is in `parent`, which then stays.
    removeTmp();
  }
}

/**
 * Decodes and checks every row of the downloaded file (an invalid row is refused before
 * anything is stored); the data rows of every split and the cases of the test split.
 */
async function validateSplit(path: string, revision: string): Promise<{ total: number; cases: number }> {
  const name = `${PARQUET_PATH}@${revision}`;
  const decoded = await decodeParquetRows(path, { split: SPLIT, displayName: name });
  const collector = new CaseCollector(name);
  for (const r of decoded.rows) {
    if ('problem' in r) collector.problem(r.row, r.problem, r.caseId, r.field);
    else collector.add(r.value, r.row);
  }
  collector.finish();
  if (collector.caseCount === 0) {
    throw new InvalidInputError([
      {
        file: name,
        line: null,
        message: `no rows of split ${SPLIT} (splits in the file: ${[...decoded.splits].sort().join(', ') || 'none'})`,
      },
    ]);
  }
  return { total: decoded.total, cases: collector.caseCount };
}

/** Streams the response body to `path` while hashing it. */
async function downloadTo(
  url: string,
  authorization: string | null,
  path: string,
  options: FetchTypedDecisionsOptions,
): Promise<{ sha256: string; bytes: number }> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  // Aborted by the caller or by the stall timer, which restarts at every piece of the body.
  const stall = new AbortController();
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const armStallTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      stall.abort(new Error(`no data for ${stallTimeoutMs} ms`));
    }, stallTimeoutMs);
  };
  const signal = options.signal === undefined ? stall.signal : AbortSignal.any([options.signal, stall.signal]);
  const stalledError = (received: number, err?: unknown) =>
    new DatasetFetchError(
      `download stalled: no data for ${stallTimeoutMs / 1000} s after ${received} bytes (${url}); nothing was saved, try again`,
      { url, receivedBytes: received },
      err,
    );
  armStallTimer();
  try {
    return await readBody();
  } finally {
    clearTimeout(timer);
  }

  async function readBody(): Promise<{ sha256: string; bytes: number }> {
    let response: Response;
    try {
      response = await options.fetch(url, {
        redirect: 'follow',
        signal,
        ...(authorization === null ? {} : { headers: { authorization } }),
      });
    } catch (err) {
      if (stalled) throw stalledError(0, err);
      throw networkError(url, err, options.signal);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const hint =
        response.status === 404
          ? words`no such revision or file; check ${option('revision')}`
          : response.status === 401 || response.status === 403
            ? 'access denied; Typed Decisions is public, so a proxy may be in the way'
            : `try again later, or ${withoutNetworkWords()}`;
      throw new DatasetFetchError(words`download failed: HTTP ${response.status} from ${url} (${hint})`, {
        url,
        status: response.status,
      });
    }
    const lengthHeader = response.headers.get('content-length');
    const encoded = response.headers.get('content-encoding');
    const totalBytes =
      lengthHeader !== null && /^\d+$/.test(lengthHeader) && (encoded === null || encoded === 'identity')
        ? Number(lengthHeader)
        : null;
    const tooLarge = (bytes: string) =>
      new DatasetFetchError(
        `download refused: ${url} sends ${bytes} bytes, more than the ${maxBytes} expected (a wrong mirror?); nothing was saved`,
        { url, maxBytes },
      );
    if (totalBytes !== null && totalBytes > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(String(totalBytes));
    }
    const hash = createHash('sha256');
    let received = 0;
    const file = await open(path, 'w');
    try {
      if (response.body === null) throw new DatasetFetchError(`download failed: empty response from ${url}`, { url });
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          armStallTimer();
          received += chunk.length;
          if (received > maxBytes) {
            stall.abort(new Error('over the size cap'));
            throw tooLarge(`more than ${maxBytes}`);
          }
          hash.update(chunk);
          await file.write(chunk);
          options.onProgress?.({ receivedBytes: received, totalBytes });
        }
      } catch (err) {
        if (err instanceof DatasetFetchError) throw err;
        if (options.signal?.aborted) throw networkError(url, err, options.signal);
        if (stalled) throw stalledError(received, err);
        throw new DatasetFetchError(
          `download truncated: the connection closed after ${received}${totalBytes === null ? '' : ` of ${totalBytes}`} bytes (${url}); nothing was saved, try again`,
          { url, receivedBytes: received, totalBytes },
          err,
        );
      }
      await file.sync();
    } finally {
      await file.close();
    }
    if (totalBytes !== null && received !== totalBytes) {
      throw new DatasetFetchError(
        `download truncated: received ${received} of ${totalBytes} bytes (${url}); nothing was saved, try again`,
        { url, receivedBytes: received, totalBytes },
      );
    }
    return { sha256: hash.digest('hex'), bytes: received };
  }
}

const OFFLINE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** How to go on without the download: the file fetched by hand, given to bench (a command that works when pasted). */
function withoutNetworkWords(): string {
  return `download ${PARQUET_PATH} from ${TYPED_DECISIONS_URL} on a machine that is online and run \`${benchOnDownloadedFileCommand()}\` in the folder that holds it (its sha256 is checked)`;
}

/** Refuses a mirror URL that is not an http(s) URL, in words, before anything is sent. */
function refuseMirrorUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return;
  throw new DecidekitError(
    'invalid_base_url',
    `the mirror ${JSON.stringify(parsed === null ? '<not a URL>' : `${parsed.protocol}…`)} is not an http or https URL (expected e.g. https://huggingface.co)`,
  );
}

/** Turns a fetch rejection into a message that says how to go on without the network. */
export function networkError(url: string, err: unknown, signal?: AbortSignal): DatasetFetchError {
  if (signal?.aborted) return new DatasetFetchError(`download cancelled (${url}); nothing was saved`, { url }, err);
  const code = errorCode(err);
  const host = new URL(url).host;
  const how = `To use Typed Decisions without the network, ${withoutNetworkWords()}`;
  if (code === 'ECONNREFUSED')
    return new DatasetFetchError(
      `cannot download: nothing is listening at ${host} (the connection was refused; is the address right, and its server running?). ${how}`,
      { url, code },
      err,
    );
  if (code === undefined && innermostMessage(err) === 'bad port')
    return new DatasetFetchError(
      `cannot download from ${host}: port ${new URL(url).port} is one that fetch never connects to (it is kept for other protocols); give the mirror another port. ${how}`,
      { url, code: null },
      err,
    );
  // Said in words (a raw code such as ENOTFOUND tells a user nothing).
  const reason = networkReasonWords(code ?? innermostMessage(err));
  const offline = code === undefined || OFFLINE_CODES.has(code);
  return new DatasetFetchError(
    `cannot reach ${host} (${reason})${offline ? '; are you offline? ' : '; '}${how}`,
    { url, code: code ?? null },
    err,
  );
}

/** The message of the deepest cause ("fetch failed" says nothing; its cause may). */
function innermostMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    message = e.message;
  return message;
}

function errorCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e instanceof Object && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Moves `from` to `to`, replacing an older copy only once the new one is in place. */
async function replaceDir(from: string, to: string): Promise<void> {
  let old: string | null = null;
  try {
    await stat(to);
    old = `${to}.old-${randomBytes(4).toString('hex')}`;
    await rename(to, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    await rename(from, to);
  } catch (err) {
    if (old !== null) await rename(old, to);
    throw err;
  }
  if (old !== null) await rm(old, { recursive: true, force: true });
}
