/**
 * The case writer: commits a run's finished cases from a worker thread, so the SQLite work
 * (inserts, index pages, commits and syncs) runs beside the client, the
 * embedded server and the accumulators instead of between them. This thread packs each
 * batch (`packCaseBatch`: its values, each distinct string once, and each case's digest) and
 * transfers its buffers; the worker binds the values where they lie and commits them, one
 * transaction per batch, in the order they were sent.
 *
 * A batch's promise resolves once its transaction is committed (in the write-ahead log, so
 * a killed process keeps it) and rejects with the store's own error (`StoreWriteError`,
 * `StoreDamagedError`) when it was not: nothing of a rejected batch is kept.
 */
import { given } from '../../core/given.js';
import { compiledWorkerFile } from '../../datasets/worker-file.js';
import { Worker } from 'node:worker_threads';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError } from '../../core/errors.js';
import { packCaseBatch, transferables } from '../sqlite/case-batch.js';
import type { CaseWriter as PortCaseWriter } from '../store.js';
import type { SaveProgress } from '../stored-run.js';
import { openRowWriter } from '../sqlite/row-writer.js';
import { StoreDamagedError, StoreWriteError } from '../store-errors.js';
import type { FromWriter, ToWriter, WriterErrorData, WriterWorkerData } from './case-writer-messages.js';

/** The port's `CaseWriter`, and which thread commits. */
export interface CaseWriter extends PortCaseWriter {
  /** `worker`: a worker thread commits; `inline`: this thread does (no compiled worker found). */
  readonly thread: 'worker' | 'inline';
  /**
   * Commits `results` (and the run's duration so far) in one transaction; resolves once
   * committed. Batches commit in the order they were given.
   */
  save(runId: string, results: readonly CaseResult[], progress?: SaveProgress): Promise<void>;
  /** Waits for the batches given, then stops the thread. */
  close(): Promise<void>;
}

export interface CaseWriterOptions {
  /** How long to wait for another process's write lock. Default 5000. */
  readonly busyTimeoutMs?: number;
  /** The longest time between syncs to disk (`synchronous = NORMAL`). Default 2000. */
  readonly syncIntervalMs?: number;
  /** `auto` (default): a worker thread when its compiled file is there; `inline`: this thread. */
  readonly thread?: 'auto' | 'inline';
}

/** Starts a case writer for the (existing) store at `path`. */
export function startCaseWriter(path: string, options: CaseWriterOptions = {}): CaseWriter {
  const file = options.thread === 'inline' ? null : compiledWorkerFile(import.meta.url, 'case-writer-worker');
  const storeOptions = {
    ...given({ busyTimeoutMs: options.busyTimeoutMs, syncIntervalMs: options.syncIntervalMs }),
  };
  return file === null ? inlineWriter(path, storeOptions) : workerWriter(file, { path, options: storeOptions });
}

function inlineWriter(path: string, options: WriterWorkerData['options']): CaseWriter {
  const writer = openRowWriter(path, options);
  return {
    thread: 'inline',
    save(runId, results, progress = {}) {
      try {
        writer.saveBatch(runId, packCaseBatch(results), progress);
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err);
      }
    },
    close() {
      writer.close();
      return Promise.resolve();
    },
  };
}

/**
 * V8 limits of the writer thread, in MB. A young generation of 4 MB holds a batch's rows and
 * digests while they are written, so they die young instead of being promoted (2 MB spent
 * about a tenth more CPU on the thread, BENCHMARKS.md), for a few MB more.
 */
export const WRITER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

function workerWriter(file: string, data: WriterWorkerData): CaseWriter {
  // The thread holds only the batch being committed: a small heap keeps the run's memory
  // bounded (~60 MB less peak RSS at 100,000 cases, BENCHMARKS.md). A batch that outgrew it
  // would stop the thread, which the run reports as a store write error (resumable).
  const worker = new Worker(file, { workerData: data, resourceLimits: WRITER_HEAP });
  const waiting = new Map<number, { resolve: () => void; reject: (err: unknown) => void }>();
  let seq = 0;
  let stopped: unknown = null;
  const failAll = (err: unknown) => {
    stopped ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      failAll(new StoreWriteError(data.path, null, `its writer thread stopped (exit code ${code})`, undefined));
      resolve();
    }),
  );
  worker.on('message', (m: FromWriter) => {
    const w = waiting.get(m.seq);
    if (w === undefined) return;
    waiting.delete(m.seq);
    if (m.kind === 'saved') w.resolve();
    else w.reject(errorOf(data.path, m.error));
  });
  worker.on('error', (err) =>
    failAll(new StoreWriteError(data.path, null, `its writer thread failed (${err.message})`, err)),
  );
  const post = (m: ToWriter) => worker.postMessage(m, m.kind === 'save' ? transferables(m.batch) : []);
  let closing: Promise<void> | null = null;
  return {
    thread: 'worker',
    save(runId, results, progress = {}) {
      if (stopped !== null) return Promise.reject(stopped);
      if (closing !== null) return Promise.reject(new Error('the case writer is closed'));
      const n = seq++;
      const done = new Promise<void>((resolve, reject) => waiting.set(n, { resolve, reject }));
      post({ kind: 'save', seq: n, runId, batch: packCaseBatch(results), durationMs: progress.durationMs ?? null });
      return done;
    },
    close() {
      if (closing === null) {
        if (stopped === null) post({ kind: 'close' });
        closing = exited;
      }
      return closing;
    },
  };
}

/** The store's error again, from its description (the same class, so callers can tell them apart). */
function errorOf(path: string, e: WriterErrorData): Error {
  switch (e.kind) {
    case 'write':
      return new StoreWriteError(path, e.runId, e.detail ?? e.message, undefined);
    case 'damaged':
      return new StoreDamagedError(path, e.detail ?? e.message, e.runId === null ? {} : { runId: e.runId });
    case 'other':
      // A refusal (an unknown run, a case outside the run's case set) keeps its code.
      return e.code !== null
        ? new DecidekitError(e.code as DecidekitError['code'], e.message)
        : new StoreWriteError(path, e.runId, e.message, undefined);
  }
}
