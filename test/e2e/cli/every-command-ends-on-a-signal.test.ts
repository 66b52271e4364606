/**
 * Every command ends on SIGTERM (and a bench on SIGHUP, as on SIGTERM): the built bin as a
 * real process, long commands against the real reference server on loopback made slow, a
 * long `score` on a large file, a command waiting on a named pipe nobody writes to.
 */
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { decidekit: string } }).bin.decidekit,
);
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-signals-');
let slow: ReferenceServer;
beforeAll(async () => {
  slow = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 150 } });
});
afterAll(async () => {
  await slow.close();
});

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** Milliseconds from the signal to the exit. */
  readonly afterSignalMs: number;
}

/** Runs the bin, sends `signal` once `ready` holds of its stderr (or after `afterMs`), and waits for the exit. */
async function signalled(
  args: string[],
  signal: NodeJS.Signals,
  when: { readonly ready?: (stderr: string) => boolean; readonly afterMs?: number },
): Promise<Ended> {
  const child = spawn(BIN, args, {
    cwd: tmp,
    env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: join(tmp, 'xdg') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let sentAt = 0;
  const send = () => {
    if (sentAt !== 0) return;
    sentAt = Date.now();
    child.kill(signal);
  };
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (when.ready?.(stderr) === true) send();
  });
  if (when.afterMs !== undefined) setTimeout(send, when.afterMs);
  return new Promise((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr, afterSignalMs: Date.now() - sentAt })),
  );
}

function expectEndedBy(r: Ended, code: number): void {
  // 128 + the signal's number, as an exit code or as the signal itself (the shell shows both the same).
  expect(r.code === code || (r.code === null && r.signal !== null), `${r.code} ${r.signal} ${r.stderr}`).toBe(true);
  expect(r.afterSignalMs).toBeLessThan(5000);
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toContain('internal error');
}

describe('every command ends on a signal', () => {
  it('bench on SIGHUP stops as on SIGTERM: the run is kept as interrupted, with the resume command, exit 129', async () => {
    const store = join(tmp, 'hup.sqlite');
    // Sent once a case is done (a progress line says so): a loaded machine may take longer than
    // any fixed wait to finish one, and a run with none kept has nothing to resume.
    const r = await signalled(['bench', '--base-url', slow.url, '--store', store], 'SIGHUP', {
      ready: (stderr) => /^progress: .*\b[1-9]\d*\/100 cases/m.test(stderr),
    });
    expect(r.code, r.stderr).toBe(129);
    expect(r.stderr).toMatch(
      /decidekit bench: interrupted; \d+ of 100 cases kept\. Resume with: decidekit bench --resume \S+ --store /,
    );
    const s = openStore(store, { mustExist: true });
    try {
      const [run] = s.runs.list();
      expect(run?.status).toBe('interrupted');
    } finally {
      s.close();
    }
  }, 30_000);

  it('bench, audit, probe and live end on SIGTERM with 143', async () => {
    const commands: string[][] = [
      ['bench', '--base-url', slow.url, '--no-store'],
      ['audit', '--base-url', slow.url, '--model', 'judge', '--no-store'],
      ['probe', '--base-url', slow.url, '--no-store'],
      ['live', '--base-url', slow.url, '--interval', '0.1'],
    ];
    for (const args of commands) {
      const r = await signalled(args, 'SIGTERM', { afterMs: 1500 });
      expectEndedBy(r, 143);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(143);
    }
  }, 60_000);

  it('score on a large file ends on SIGTERM with 143', async () => {
    const dataset = join(tmp, 'big-dataset.jsonl');
    const results = join(tmp, 'big-results.jsonl');
    // Valid lines, enough that scoring them takes well over the 400 ms before the signal (an
    // invalid file is refused as soon as it is read, which a quiet machine does within that time).
    const cases = 600_000;
    const d: string[] = [];
    const res: string[] = [];
    for (let i = 0; i < cases; i++) {
      d.push(JSON.stringify({ id: `c${i}`, kind: 'yes_no', prompt: `case ${i}`, correct: i % 2 === 0 }));
      res.push(JSON.stringify({ case_id: `c${i}`, model: 'm', decision: { probability: 0.25 + (i % 7) / 10 } }));
    }
    writeFileSync(dataset, d.join('\n') + '\n');
    writeFileSync(results, res.join('\n') + '\n');
    const r = await signalled(['score', '--dataset', dataset, '--results', results], 'SIGTERM', { afterMs: 400 });
    expectEndedBy(r, 143);
  }, 60_000);

  it('a command waiting on a named pipe nobody writes to ends on SIGTERM', async () => {
    const fifo = join(tmp, 'never-written.jsonl');
    execFileSync('mkfifo', [fifo]);
    const dataset = join(ROOT, 'data', 'moderation', 'dataset.jsonl');
    const r = await signalled(['score', '--dataset', dataset, '--results', fifo], 'SIGTERM', { afterMs: 1000 });
    // Refused as not a regular file (exit 1, as a missing input file) before the signal, or ended by the signal.
    if (r.code === 1) expect(r.stderr).toContain(`${fifo} (a FIFO (named pipe), not a regular file)`);
    else expectEndedBy(r, 143);
  }, 30_000);
});
