/**
 * A Parquet export stopped by Ctrl+C or SIGTERM while DuckDB writes it: the built bin as a
 * real process on a large stored run, its temp folder in a private TMPDIR. It ends with the
 * interrupted exit code (DuckDB's `COPY` is interrupted, the worker writing its pipes let go)
 * and leaves neither its temp folder (pipes, DuckDB's file) nor a partial output behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore, summarizeRun } from '../../../src/store/index.js';
import {
  answeredCase,
  createRunConfig,
  failedCase,
  rightAnswers,
} from '../../../src/core/bench/test-support/run-fixtures.js';
import type { CaseResult } from '../../../src/core/typed-decisions/case-result.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { decidekit: string } }).bin.decidekit,
);
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-parquet-signal-');
/** Enough decisions that DuckDB's `COPY` takes a while after it has made its file. */
const CASES = 60_000;
let storePath: string;
let runId: string;

beforeAll(() => {
  storePath = join(tmp, 'big.sqlite');
  const caseIds = Array.from({ length: CASES }, (_, i) => `c${i}`);
  const config = createRunConfig({ caseIds, pricePerMtokUsd: 0.3 });
  const store = openStore(storePath);
  try {
    const head = store.runs.create({ config, label: null, createdAt: '2026-11-30T04:15:12Z' });
    const all: CaseResult[] = [];
    for (let i = 0; i < CASES; i += 1000) {
      const batch = caseIds
        .slice(i, i + 1000)
        .map((id, j) => ((i + j) % 10 === 9 ? failedCase(id, 3) : answeredCase(id, rightAnswers(j % 7), 10 + j)));
      store.cases.save(head.id, batch);
      all.push(...batch);
    }
    const summary = summarizeRun(config, all);
    store.runs.finish(head.id, { status: summary.status, durationMs: 10, summary });
    runId = head.id;
  } finally {
    store.close();
  }
}, 120_000);

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** Whether the signal went before the process ended. */
  readonly signalled: boolean;
}

/** The export folders in `dir` holding DuckDB's file, being written. */
const writing = (dir: string): boolean =>
  readdirSync(dir).some((f) => f.startsWith('decidekit-export-') && existsSync(join(dir, f, 'decisions.parquet')));

/** Runs the export with TMPDIR `privateTmp`, sends `signal` once DuckDB writes its file, and waits for the end. */
function exportSignalled(privateTmp: string, out: string, signal: NodeJS.Signals): Promise<Ended> {
  const child = spawn(BIN, ['runs', 'export', runId, '--store', storePath, '--out', out], {
    cwd: tmp,
    env: { ...process.env, NO_COLOR: '1', TMPDIR: privateTmp, XDG_DATA_HOME: join(tmp, 'xdg') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let signalled = false;
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const watch = setInterval(() => {
    if (signalled || !writing(privateTmp)) return;
    signalled = true;
    child.kill(signal);
  }, 2);
  // A hang is the failure this guards against: a generous bound, not a measure of speed.
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code, sig) => {
      clearInterval(watch);
      clearTimeout(guard);
      resolve({ code, signal: sig, stderr, signalled });
    }),
  );
}

describe('a Parquet export stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`ends on ${signal} with ${code}, leaving no temp folder and no output`, async () => {
      const privateTmp = join(tmp, `tmp-${signal}`);
      mkdirSync(privateTmp);
      const outDir = join(tmp, `out-${signal}`);
      mkdirSync(outDir);
      const r = await exportSignalled(privateTmp, join(outDir, 'decisions.parquet'), signal);
      expect(r.signalled, `the export ended before the signal: ${r.stderr}`).toBe(true);
      expect(r.signal, `killed after hanging: ${r.stderr}`).not.toBe('SIGKILL');
      // 128 + the signal's number, as an exit code or as the signal itself (the shell shows both the same).
      expect(r.code === code || (r.code === null && r.signal === signal), `${r.code} ${r.signal} ${r.stderr}`).toBe(
        true,
      );
      expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(r.stderr).not.toContain('internal error');
      expect(readdirSync(privateTmp)).toEqual([]);
      expect(readdirSync(outDir)).toEqual([]);
    }, 60_000);
  }
});
