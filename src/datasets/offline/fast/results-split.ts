/**
 * Two threads for one large results file: a worker pre-parses the file from a line near its
 * middle (offline-results-preparse.ts) while the main thread reads the lines before it the
 * usual way; the main thread then takes the worker's batches in order. Small and gzipped
 * files stay on one thread (a worker costs ~40 ms to start).
 */
import { existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { utf8Text } from '../../read-lines.js';
import { preparseResultLines, ResultBatch } from './results-preparse.js';
import type { PreparseMessage, PreparseWorkerData } from './results-worker.js';

/** How a results file is split between threads (internal; tests use `inline`). */
export interface ResultsSplitOptions {
  /**
   * `auto`: a worker thread when the file is large enough, plain and the compiled worker
   * script exists; `inline`: the same split with the pre-parse on this thread (tests);
   * `off`: one thread. Default `auto`.
   */
  readonly mode?: 'auto' | 'inline' | 'off';
  /** Smallest file (bytes) split in `auto` mode. Default 8 MiB. */
  readonly minBytes?: number;
  /**
   * Share of the file the main thread reads itself, the rest goes to the worker. Default
   * 0.35; 0 gives the whole file to the worker (for a prefetch started before the dataset
   * is loaded, see prefetchResults).
   */
  readonly mainShare?: number;
}

export interface ResultsSplit {
  /** File offset of the first line the worker reads (0: the whole file, after any byte order mark). */
  readonly from: number;
  /** The next batch of lines, in file order. */
  next(): Promise<{ batch: ResultBatch; last: boolean; model: string | null }>;
  /** Hands a batch that was read back for reuse. */
  giveBack(batch: ResultBatch): void;
  /** The text of a line (for the slow path), read again from the file; null when it is not valid UTF-8. */
  lineText(fileOffset: number, length: number): string | null;
  close(): Promise<void>;
}

const DEFAULT_MIN_BYTES = 8 << 20;
const DEFAULT_MAIN_SHARE = 0.35;
const WORKER_URL = new URL('./results-worker.js', import.meta.url);

/** Starts the split of a results file, or null when it stays on one thread. */
export async function startResultsSplit(path: string, options: ResultsSplitOptions = {}): Promise<ResultsSplit | null> {
  const mode = options.mode ?? 'auto';
  if (mode === 'off' || path.endsWith('.gz')) return null;
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return null; // the single-thread reader refuses it
    size = stats.size;
  } catch {
    return null; // the single-thread reader words the error
  }
  if (mode === 'auto' && (size < (options.minBytes ?? DEFAULT_MIN_BYTES) || !existsSync(fileURLToPath(WORKER_URL))))
    return null;
  const share = options.mainShare ?? DEFAULT_MAIN_SHARE;
  const from = share === 0 ? 0 : lineStartAfter(path, Math.floor(size * share));
  if (from < 0 || from >= size) return null;
  const skip = from === 0 && startsWithBom(path) ? 3 : 0;
  return mode === 'inline' ? inlineSplit(path, from, skip) : workerSplit(path, from, skip);
}

function startsWithBom(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(3);
    return readSync(fd, b, 0, 3, 0) === 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  } finally {
    closeSync(fd);
  }
}

/** Offset of the first line that starts after byte `at` (at > 0), or -1. */
function lineStartAfter(path: string, at: number): number {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let pos = Math.max(at, 3); ;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return -1;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      if (nl !== -1) return pos + nl + 1;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

function lineReader(path: string): { lineText(at: number, length: number): string | null; close(): void } {
  let fd = -1;
  return {
    lineText(at, length) {
      if (fd === -1) fd = openSync(path, 'r');
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, at + got);
        if (n === 0) break;
        got += n;
      }
      return utf8Text(buf, 0, got);
    },
    close() {
      if (fd !== -1) closeSync(fd);
      fd = -1;
    },
  };
}

function inlineSplit(path: string, from: number, skip: number): ResultsSplit {
  const batches: { batch: ResultBatch; last: boolean; model: string | null }[] = [];
  preparseResultLines(
    path,
    from + skip,
    (batch, last, model) => batches.push({ batch, last, model }),
    () => new ResultBatch(),
  );
  const lines = lineReader(path);
  return {
    from,
    next: async () => batches.shift()!,
    giveBack() {},
    lineText: lines.lineText,
    close: async () => lines.close(),
  };
}

function workerSplit(path: string, from: number, skip: number): ResultsSplit {
  const { port1, port2 } = new MessageChannel();
  const data: PreparseWorkerData = { path, from: from + skip, returns: port2 };
  const worker = new Worker(WORKER_URL, { workerData: data, transferList: [port2] });
  const queue: PreparseMessage[] = [];
  let waiting: { resolve: (m: PreparseMessage) => void; reject: (err: unknown) => void } | null = null;
  let failure: unknown = null;
  let done = false;
  worker.on('message', (m: PreparseMessage) => {
    if (m.last) done = true;
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w.resolve(m);
    } else queue.push(m);
  });
  const fail = (err: unknown): void => {
    failure ??= err;
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w.reject(err);
    }
  };
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!done) fail(new Error(`results pre-parse worker stopped early (exit code ${code})`));
  });
  const lines = lineReader(path);
  const open = (m: PreparseMessage): { batch: ResultBatch; last: boolean; model: string | null } => {
    const batch = new ResultBatch(m.buffer);
    batch.count = m.count;
    return { batch, last: m.last, model: m.model };
  };
  return {
    from,
    next() {
      const m = queue.shift();
      if (m !== undefined) return Promise.resolve(open(m));
      if (failure !== null) return Promise.reject(failure);
      return new Promise<PreparseMessage>((resolve, reject) => (waiting = { resolve, reject })).then(open);
    },
    giveBack(batch) {
      if (!done) port1.postMessage(batch.buffer, [batch.buffer]);
    },
    lineText: lines.lineText,
    async close() {
      lines.close();
      port1.close();
      if (!done) await worker.terminate();
    },
  };
}
