/**
 * Worker thread entry of the case writer (see case-writer.ts): opens its own connection to
 * the store and commits each packed batch as it arrives, in order, replying once
 * the batch is committed (or why it was not).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DecidekitError } from '../../core/errors.js';
import { openRowWriter, type RowWriter } from '../sqlite/row-writer.js';
import { StoreDamagedError, StoreWriteError } from '../store-errors.js';
import type { FromWriter, ToWriter, WriterErrorData, WriterWorkerData } from './case-writer-messages.js';

const port = parentPort!;
const { path, options } = workerData as WriterWorkerData;

function errorData(err: unknown, runId: string): WriterErrorData {
  if (err instanceof StoreWriteError)
    return { kind: 'write', code: err.code, message: err.message, detail: err.detail, runId: err.runId };
  if (err instanceof StoreDamagedError)
    return { kind: 'damaged', code: err.code, message: err.message, detail: err.detail, runId };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'other', code: err instanceof DecidekitError ? err.code : null, message, detail: null, runId };
}

let writer: RowWriter | null = null;
let openError: unknown = null;
try {
  writer = openRowWriter(path, options);
} catch (err) {
  openError = err;
}

port.on('message', (m: ToWriter) => {
  if (m.kind === 'close') {
    writer?.close();
    writer = null;
    port.close();
    return;
  }
  let reply: FromWriter;
  try {
    if (writer === null) throw openError;
    writer.saveBatch(m.runId, m.batch, m.durationMs === null ? {} : { durationMs: m.durationMs });
    reply = { kind: 'saved', seq: m.seq };
  } catch (err) {
    reply = { kind: 'failed', seq: m.seq, error: errorData(err, m.runId) };
  }
  port.postMessage(reply);
});
