/**
 * Worker thread entry: pre-parses a results file from a byte offset (see
 * offline-results-preparse.ts) and posts each batch's buffer, transferred. Buffers the main
 * thread is done with come back on `returns` and are reused.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { preparseResultLines, ResultBatch } from './results-preparse.js';

/** What the main thread sends when it starts the worker. */
export interface PreparseWorkerData {
  readonly path: string;
  readonly from: number;
  readonly returns: MessagePort;
}

/** What the worker posts: one batch (its buffer, transferred). */
export interface PreparseMessage {
  readonly buffer: ArrayBuffer;
  readonly count: number;
  readonly last: boolean;
  readonly model: string | null;
}

const { path, from, returns } = workerData as PreparseWorkerData;

preparseResultLines(
  path,
  from,
  (batch, last, model) => {
    const message: PreparseMessage = { buffer: batch.buffer, count: batch.count, last, model };
    parentPort!.postMessage(message, [batch.buffer]);
  },
  () => {
    const back = receiveMessageOnPort(returns);
    return back === undefined ? new ResultBatch() : new ResultBatch(back.message as ArrayBuffer);
  },
);
returns.close();
