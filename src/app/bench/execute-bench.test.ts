/**
 * `executeBench` reads its dataset in two passes: every row is checked before anything is
 * sent, then the planned cases are read again while they are sent. Against the real
 * reference server in this process (and a counting server on loopback).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { spellForCli } from '../../cli/option-flags.js';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../core/errors.js';
import { answersOf } from '../../core/question.js';
import { loadBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { repeatedSampleRows } from '../../datasets/typed-decisions/test-support/typed-decisions-parquet.js';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';
import { startReferenceServer } from '../../protocol/server/server.js';
import { executeBench, planBenchFromStore } from './execute-bench.js';
import { planBench, selectCases, type BenchRequest } from './plan-bench.js';

const tempDir = tempFoldersRemovedAfterEach('decidekit-exec-bench-');

/** The sample repeated `copies` times with new ids, one JSON line each (~2.6 KB a line). */
function repeatedLines(copies: number): string[] {
  return repeatedSampleRows(copies).map((r) => JSON.stringify(r));
}

const options = (cacheDir: string) => ({
  toolVersion: '0.0.0-test',
  cacheDir,
  signal: new AbortController().signal,
  now: () => performance.now(),
});

describe('executeBench: the dataset in two passes', () => {
  it('reports a bad line deep in the dataset, located, before any request is sent', async () => {
    const dir = tempDir();
    const path = join(dir, 'cases.jsonl');
    const lines = repeatedLines(10);
    lines[949] = lines[949]!.replace('"workflow":', '"workflow_":');
    writeFileSync(path, lines.join('\n') + '\n');
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const plan = planBench(
        { baseUrl: `http://127.0.0.1:${port}`, dataset: { kind: 'path', path }, storePath: null, parallel: 4 },
        null,
      );
      const err = await executeBench(plan, options(dir)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidInputError);
      expect((err as InvalidInputError).problems).toEqual([
        expect.objectContaining({ file: path, line: 950, field: 'workflow' }),
      ]);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const selections: { name: string; request: Partial<BenchRequest> }[] = [
    { name: 'every case', request: {} },
    { name: '--limit', request: { limit: 333 } },
    { name: '--workflow', request: { workflow: 'invoice_processing' } },
    { name: '--sample', request: { sample: { cases: 157, seed: 11 } } },
    { name: '--workflow with --sample', request: { workflow: 'customer_service', sample: { cases: 40, seed: 3 } } },
  ];
  it.each(selections)('sends the cases the loaded dataset selects ($name), in order', async ({ request }) => {
    const dir = tempDir();
    const path = join(dir, 'cases.jsonl');
    writeFileSync(path, repeatedLines(6).join('\n') + '\n');
    const plan = planBench({ dataset: { kind: 'path', path }, storePath: null, parallel: 8, ...request }, null);
    const expected = selectCases((await loadBenchDataset({ kind: 'path', path })).cases, plan);
    const outcome = await executeBench(plan, { ...options(dir), readCases: true });
    expect(outcome.kind).toBe('finished');
    if (outcome.kind !== 'finished') return;
    try {
      expect(outcome.run.config.caseIds).toEqual(expected.map((c) => c.id));
      const sent = [...outcome.run.cases];
      expect(sent.map((r) => [r.caseId, r.workflow, r.request.status])).toEqual(
        expected.map((c) => [c.id, c.workflow, 'answered']),
      );
      // Each case was sent with its own questions and scored against its own gold.
      expect(sent.map((r) => r.decisions.map((d) => [d.questionId, d.gold.label]))).toEqual(
        expected.map((c) => c.questions.map(([qid, q], i) => [qid, answersOf(q)[c.gold[i]!.labelIndex]])),
      );
    } finally {
      outcome.dispose();
    }
  });

  it.each([
    { option: '--sample 1000', call: 'sample 1000', request: { sample: { cases: 1000, seed: 1 } } },
    { option: '--limit 600', call: 'limit 600', request: { limit: 600 } },
  ])('makes $option that covers every case a full run, and says so', async ({ option, call, request }) => {
    const dir = tempDir();
    const path = join(dir, 'cases.jsonl');
    writeFileSync(path, repeatedLines(6).join('\n') + '\n');
    const total = repeatedLines(6).length;
    const notes: string[] = [];
    const flagNotes: string[] = [];
    const full = await executeBench(
      planBench({ dataset: { kind: 'path', path }, storePath: null }, null),
      options(dir),
    );
    const covered = await executeBench(
      planBench({ dataset: { kind: 'path', path }, storePath: null, ...request }, null),
      {
        ...options(dir),
        reporter: {
          onNote: (note, words) => {
            notes.push(note);
            flagNotes.push(spellForCli(words));
          },
        },
      },
    );
    if (full.kind !== 'finished' || covered.kind !== 'finished') throw new Error('a run stopped');
    expect(notes).toEqual([`${call} covers all ${total} cases of the dataset: this is a full run`]);
    expect(flagNotes).toEqual([`${option} covers all ${total} cases of the dataset: this is a full run`]);
    expect(covered.run.config.filters).toEqual(full.run.config.filters);
    expect(covered.run.config.caseIds).toEqual(full.run.config.caseIds);
    full.dispose();
    covered.dispose();
  });
});

describe('executeBench: a resumed run claimed after it was read', () => {
  it('refuses to send when another process saved cases to the run in between', async () => {
    const dir = tempDir();
    const storePath = join(dir, 'runs.sqlite');
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 5 } });
    try {
      const interrupted = new AbortController();
      let seen = 0;
      // A first session, stopped after its first cases (one request at a time, 5 ms each).
      const first = await executeBench(
        await planBenchFromStore({ dataset: { kind: 'sample' }, baseUrl: server.url, storePath }),
        {
          ...options(dir),
          signal: interrupted.signal,
          reporter: {
            onCase: () => {
              if (++seen === 3) interrupted.abort();
            },
          },
        },
      );
      expect(first.kind).toBe('finished');
      const runId = (first as { run: { id: string } }).run.id;
      // Planned (the run read) now, sent later: another process finishes the run meanwhile.
      const stale = await planBenchFromStore({ storePath, resume: runId });
      expect(stale.resume!.run.answered.size).toBeLessThan(100);
      const other = await executeBench(await planBenchFromStore({ storePath, resume: runId }), options(dir));
      expect(other.kind).toBe('finished');
      await expect(executeBench(stale, options(dir))).rejects.toThrow(
        `run ${runId} got new cases from another decidekit process while this one was starting`,
      );
    } finally {
      await server.close();
    }
  });
});
