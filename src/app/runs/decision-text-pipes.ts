/**
 * The store's text of a run handed to DuckDB through named pipes instead of temp files: a
 * worker thread (`decision-text-worker.ts`) has SQLite make the text and writes it into the
 * pipes while DuckDB's `COPY` reads them, so the two run side by side (SQLite on the worker,
 * DuckDB on its own thread, the JavaScript thread free for DuckDB's calls of the log loss) and
 * the text never reaches the disk. Where pipes cannot be made (no `mkfifo`, as on Windows) or
 * the compiled worker is missing (the sources run without a build) or older than the sources
 * (it makes another text: `decision-text-format.ts`), the caller writes the text into temp
 * files as before.
 *
 * Either side can stop first. When the worker ends before DuckDB has read every pipe, DuckDB
 * waits on a pipe nobody writes; when DuckDB stops first, the worker waits on a pipe nobody
 * reads. Whichever is left waiting is let go by opening each pipe from the other end and
 * closing it again until it has ended.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DecisionTextWorkerData, DecisionTextWorkerReply } from './decision-text-worker.js';
import { decisionTextFormat } from './decision-text-format.js';
import { compiledWorkerFile } from '../../datasets/worker-file.js';

/** `count` named pipes in `folder`, or null when they cannot be made here. */
function makePipes(folder: string, count: number): string[] | null {
  if (process.platform === 'win32') return null;
  const pipes = Array.from({ length: count }, (_, i) => join(folder, `decisions-${i}.csv`));
  try {
    execFileSync('mkfifo', ['-m', '600', ...pipes], { stdio: 'ignore' });
    return pipes;
  } catch {
    return null;
  }
}

/** Opens each pipe from one end and closes it, letting go an open waiting at the other end. */
function nudge(pipes: readonly string[], flags: number): void {
  for (const pipe of pipes) {
    try {
      closeSync(openSync(pipe, flags | constants.O_NONBLOCK));
    } catch {
      // No one at the other end (a write end opened without a reader): nothing waits here.
    }
  }
}

/** Nudges the pipes from `flags`' end until `done` settles. */
async function nudgeUntil(done: Promise<unknown>, pipes: readonly string[], flags: number): Promise<void> {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    nudge(pipes, flags);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * How the worker's text ended: `whole`, all of it written; `stale`, none (the worker makes
 * another text format than these sources read); `short`, stopped on an error or declined by
 * the store.
 */
export type PipedTextEnd = 'whole' | 'stale' | 'short';

/** A run's text on its way through pipes: the pipes to read, and how to end both sides. */
export interface PipedDecisionText {
  readonly pipes: readonly string[];
  /**
   * Waits for the worker, once the `COPY` reading the pipes has settled (either way), letting
   * go whichever side waits; how the worker's text ended.
   */
  finish(copy: Promise<unknown>): Promise<PipedTextEnd>;
}

/**
 * Starts writing the run's text into `count` pipes made in `folder`; null when pipes or the
 * worker are not available here (nothing was started).
 */
export function pipeDecisionText(
  folder: string,
  count: number,
  data: Omit<DecisionTextWorkerData, 'pipes' | 'format'> & { readonly format?: string },
): PipedDecisionText | null {
  const file = compiledWorkerFile(import.meta.url, 'decision-text-worker');
  if (file === null) return null;
  const pipes = makePipes(folder, count);
  if (pipes === null) return null;
  const workerData = { format: decisionTextFormat(), ...data, pipes } satisfies DecisionTextWorkerData;
  const worker = new Worker(file, { workerData });
  const ended = new Promise<DecisionTextWorkerReply | null>((resolve) => {
    let reply: DecisionTextWorkerReply | null = null;
    worker.on('message', (m: DecisionTextWorkerReply) => (reply = m));
    // An error thrown outside the text (the worker's own start) is its exit without a reply.
    worker.on('error', () => undefined);
    worker.on('exit', () => resolve(reply));
  });
  // A worker ended early leaves DuckDB waiting to open a pipe for reading: a writer lets it go.
  const duckDbLetGo = (copy: Promise<unknown>) => ended.then(() => nudgeUntil(copy, pipes, constants.O_WRONLY));
  return {
    pipes,
    async finish(copy) {
      const letGo = duckDbLetGo(copy);
      await copy.catch(() => undefined);
      // DuckDB stopped before the worker: the worker may wait to open a pipe for writing.
      await nudgeUntil(ended, pipes, constants.O_RDONLY);
      await letGo;
      const reply = await ended;
      if (reply !== null && 'stale' in reply) return 'stale';
      return reply !== null && 'offered' in reply && reply.offered ? 'whole' : 'short';
    },
  };
}
