#!/usr/bin/env node
/** The process entry: wires real streams, env and signals into runCli. */
import { setFlagsFromString } from 'node:v8';
import { Interruption, STOPPING_SIGNALS, type CliIo, type StoppingSignal } from './io.js';
import { runCli } from './run-cli.js';
import { removePartialFiles } from '../app/write-text-file.js';
import { removeTempFolders } from '../store/temp-folders.js';

/**
 * V8 lets its heap grow to up to 4x what was live after the last full collection when
 * allocation is fast, which a long `bench` always is (the client, the embedded server and
 * the accumulators allocate ~130 KB a case, almost all short-lived). Capping the growth at
 * 2x keeps a 100,000-case run's peak RSS near 220-250 MB instead of 280-330 MB, for 5-10%
 * more CPU; offline `score` on a million cases is unchanged (BENCHMARKS.md, "The heap
 * growth cap"). The flag is read at every full collection, so setting it here takes effect
 * for the whole command (and the store's writer thread). Only this entry sets it: a
 * program that imports decidekit keeps its own heap settings.
 */
const HEAP_GROWING_PERCENT = 100;
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

/** A stream's sink; once the reader has gone (EPIPE), writes are dropped instead of failing. */
function sink(stream: NodeJS.WriteStream, closed: () => boolean) {
  return {
    write: (text: string) => void (closed() ? undefined : stream.write(text)),
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns;
    },
    whenDrained: () =>
      closed() || !stream.writableNeedDrain
        ? null
        : new Promise<void>((resolve) => {
            const done = () => {
              stream.off('drain', done).off('close', done).off('error', done);
              resolve();
            };
            stream.on('drain', done).on('close', done).on('error', done);
          }),
  };
}

const SIGNALS = Object.keys(STOPPING_SIGNALS) as StoppingSignal[];

/**
 * Ends the process at once, first removing what an interrupted command had under way in
 * temporary files (a report being written, the upgraded copy of an old store being read):
 * their own clean-up would not run. Stopped by a signal while a file operation is still
 * under way, or while a command that does not watch for signals is still running, it ends by
 * that signal itself: Node waits for its worker threads on the way out, and a read that never
 * returns (a named pipe nobody writes to), or DuckDB's thread waiting for a JavaScript
 * function this thread will never run, would hold the exit forever. The shell sees the same
 * status (128 + the signal).
 */
function exitNow(code: number, signal: StoppingSignal | null, leftRunning: boolean): never {
  removePartialFiles();
  removeTempFolders();
  const fileWork = process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq'));
  if (signal !== null && (fileWork || leftRunning)) {
    for (const s of SIGNALS) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  }
  process.exit(code);
}

async function main(): Promise<void> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: StoppingSignal) => {
    signals++;
    if (signals > 1) exitNow(STOPPING_SIGNALS[sig], sig, true);
    controller.abort(new Interruption(sig));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  // `bench 2>&1 | head`: when stderr's reader goes, the command stops as on Ctrl+C (a bench
  // keeps what finished and saves the run as interrupted, resumable), instead of dying.
  let stderrClosed = false;
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') return;
    stderrClosed = true;
    controller.abort(new Interruption(null));
  });
  let leftRunning = false;
  const io: CliIo = {
    stdout: sink(process.stdout, () => false),
    stderr: sink(process.stderr, () => stderrClosed),
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    leftRunning: () => void (leftRunning = true),
    ...(process.stdin.isTTY && process.stdout.isTTY
      ? { terminal: { input: process.stdin, output: process.stdout } }
      : {}),
  };
  const code = await runCli(process.argv.slice(2), io);
  process.exitCode = code;
  // The command is over: a signal now must end the process, whatever handle is still open.
  for (const s of SIGNALS) process.off(s, onSignal);
  // An interrupted command may leave work pending (a file half read): end now.
  const reason: unknown = controller.signal.reason;
  if (controller.signal.aborted) exitNow(code, reason instanceof Interruption ? reason.signalName : null, leftRunning);
}

await main();
