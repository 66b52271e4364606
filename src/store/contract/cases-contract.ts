/** The contract of `Store.cases`: a run's cases saved a batch at a time and read back in run order. */
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../run-summary.js';
import { answeredCase, CASE_IDS, failedCase, rightAnswers, runConfig } from '../test-support/run-fixtures.js';
import type { Store } from '../store.js';
import { readDecisionCsv } from '../test-support/decision-csv-reader.js';
import { errorOf, freshStorePerTest, seedFinished, type FreshStore } from './contract-support.js';

const CREATED = '2026-11-30T04:15:12Z';

export function describeCasesContract(fresh: FreshStore): void {
  describe('cases', () => {
    const open = freshStorePerTest(fresh);

    it('saves a batch of cases in one transaction: all of it or none', () => {
      const s = open();
      const { id } = s.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T04:00:00.000Z' });
      s.cases.save(id, [answeredCase(CASE_IDS[0]!, rightAnswers()), failedCase(CASE_IDS[1]!)]);
      expect([...s.cases.savedIds(id, { includeFailed: true })].sort()).toEqual([CASE_IDS[0], CASE_IDS[1]]);
      expect(() =>
        s.cases.save(id, [answeredCase(CASE_IDS[2]!, rightAnswers()), answeredCase('not_in_the_run', rightAnswers())]),
      ).toThrow(/not in the case set/);
      expect(s.cases.savedIds(id, { includeFailed: true }).has(CASE_IDS[2]!)).toBe(false);
    });

    it('replaces an earlier result of the same case', () => {
      const store = open();
      const config = runConfig();
      const id = config.caseIds[0]!;
      const head = store.runs.create({ config, label: null, createdAt: CREATED });
      store.cases.save(head.id, [failedCase(id)]);
      const retried = answeredCase(id, rightAnswers());
      store.cases.save(head.id, [retried]);
      expect(store.runs.get(head.id)!.cases).toEqual([retried]);
    });

    it('keeps the replica that answered or failed each case, its digest checked', () => keepsReplicas(open()));

    it('lists answered cases, and failed ones only when asked', () => {
      const store = open();
      const config = runConfig();
      const [a, b] = config.caseIds as [string, string];
      const head = store.runs.create({ config, label: null, createdAt: CREATED });
      store.cases.save(head.id, [answeredCase(a, rightAnswers())]);
      store.cases.save(head.id, [failedCase(b)]);
      expect(store.cases.savedIds(head.id)).toEqual(new Set([a]));
      expect(store.cases.savedIds(head.id, { includeFailed: true })).toEqual(new Set([a, b]));
      expect(store.cases.byOutcome(head.id)).toEqual({ answered: new Set([a]), failed: new Set([b]) });
    });

    it('rejects a case outside the run and an unknown run', () => {
      const store = open();
      const other = store.runs.create({ config: runConfig(), label: null, createdAt: '2026-11-30T05:00:00Z' });
      expect(
        errorOf(() => store.cases.save(other.id, [answeredCase('invoice_processing_000009', rightAnswers())])).message,
      ).toContain('not in the case set');
      expect(errorOf(() => store.cases.save('nope', [answeredCase(CASE_IDS[0]!, rightAnswers())])).code).toBe(
        'unknown_run',
      );
      expect(errorOf(() => [...store.cases.iterate('nope')]).code).toBe('unknown_run');
      expect(errorOf(() => store.cases.byOutcome('nope')).code).toBe('unknown_run');
      expect(store.runs.get(other.id)!.cases).toEqual([]);
    });

    it('puts a finished run back to running when a case is saved to it (retrying a failed case)', () => {
      const store = open();
      const config = runConfig();
      const { head, cases } = seedFinished(store, config);
      const retried = answeredCase(config.caseIds[1]!, rightAnswers());
      store.cases.save(head.id, [retried]);
      expect(store.runs.head(head.id)).toMatchObject({ status: 'running', headline: null, durationMs: 1234.5 });
      const all = [cases[0]!, retried, cases[2]!, cases[3]!];
      expect(store.runs.get(head.id)!.cases).toEqual(all);
      expect(store.runs.get(head.id)!.summary).toEqual(summarizeRun(config, all));
    });

    it('keeps the duration given with a batch, so a run that is never finished has one', () => {
      const store = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: CREATED });
      store.cases.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())], { durationMs: 250 });
      expect(store.runs.head(head.id)!.durationMs).toBe(250);
    });

    it('iterates the saved cases in run order, as runs.get returns them', () => iteratesInRunOrder(open()));

    it('reads every decision flat with its case values, in run order, as the iterated cases hold them', () =>
      readsDecisionValues(open()));

    it('gives the same decisions as CSV text for a bulk reader, numbers exact', () => readsDecisionCsv(open()));

    it('gives the cases as a source read again at every iteration, also after the store is closed', () => {
      const store = open();
      const { head, cases } = seedFinished(store);
      const source = store.cases.source(head.id, 4);
      store.close();
      expect(source.length).toBe(4);
      const inOrder = [cases[0], cases[1], cases[2], cases[3]];
      expect([...source]).toEqual(inOrder);
      expect([...source]).toEqual(inOrder);
    });

    it('commits batches from a writer, each readable by another connection once its promise resolves', async () => {
      const store = open();
      const reader = open();
      const config = runConfig();
      const head = store.runs.create({ config, label: null, createdAt: CREATED });
      const writer = await store.cases.startWriter();
      try {
        await writer.save(head.id, [answeredCase(config.caseIds[0]!, rightAnswers())], { durationMs: 10 });
        expect(reader.cases.savedIds(head.id)).toEqual(new Set([config.caseIds[0]]));
        await writer.save(head.id, [failedCase(config.caseIds[1]!)]);
        expect(reader.runs.head(head.id)).toMatchObject({ savedCases: 2, durationMs: 10 });
        await expect(writer.save('nope', [failedCase(config.caseIds[2]!)])).rejects.toMatchObject({
          code: 'unknown_run',
        });
      } finally {
        await writer.close();
      }
      expect(store.runs.get(head.id)!.cases.map((c) => c.caseId)).toEqual(config.caseIds.slice(0, 2));
    });
  });
}

/** A run's cases from two replicas and one without: each read back with its own. */
function keepsReplicas(store: Store): void {
  const config = runConfig();
  const [a, b, c] = config.caseIds as [string, string, string];
  const head = store.runs.create({ config, label: null, createdAt: CREATED });
  const answered = answeredCase(a, rightAnswers());
  const failed = failedCase(b);
  const fromReplica = [
    { ...answered, request: { ...answered.request, replica: 'http://10.0.0.1:8080' } },
    { ...failed, request: { ...failed.request, replica: 'http://10.0.0.2:8080' } },
    answeredCase(c, rightAnswers()),
  ];
  store.cases.save(head.id, fromReplica);
  expect([...store.cases.iterate(head.id)]).toEqual(fromReplica);
  expect(store.runs.get(head.id)!.cases.map((r) => r.request.replica)).toEqual([
    'http://10.0.0.1:8080',
    'http://10.0.0.2:8080',
    undefined,
  ]);
  expect(store.runs.check(head.id).problems.filter((p) => p.includes('changed'))).toEqual([]);
}

/** `decisionValues` gives what the iterated cases hold, one flat row a decision. */
function readsDecisionValues(store: Store): void {
  const { head } = seedFinished(store);
  const expected = [...store.cases.iterate(head.id)].flatMap((c) =>
    c.decisions.map((d) => {
      const r = c.request;
      const o = d.outcome;
      const answered = o.status === 'answered';
      return [
        c.caseId,
        c.workflow,
        r.status,
        r.latencyMs,
        r.status === 'answered' ? r.inputTokens : null,
        r.status === 'failed' ? r.failure.kind : null,
        d.questionId,
        d.type,
        JSON.stringify(d.answers),
        d.gold.label,
        JSON.stringify(d.gold.probabilities),
        o.status,
        answered ? o.predicted : null,
        answered ? Number(o.correct) : null,
        answered ? o.confidence : null,
        answered ? o.kl : null,
        answered ? o.brier : null,
        answered ? JSON.stringify(o.probabilities) : null,
        answered ? null : o.failure.kind,
        answered ? null : o.failure.message,
        d.answers,
        answered ? o.probabilities : null,
      ];
    }),
  );
  expect(expected.length).toBeGreaterThan(4);
  expect([...store.cases.decisionValues(head.id)]).toEqual(expected);
  // Stopped early, the read leaves the store usable.
  for (const row of store.cases.decisionValues(head.id)) {
    expect(row[0]).toBe(expected[0]![0]);
    break;
  }
  store.runs.reopen(head.id);
  expect(errorOf(() => [...store.cases.decisionValues('nope')]).code).toBe('unknown_run');
}

/** `decisionCsv` gives the decisions `decisionValues` reads, as text a bulk reader takes, numbers exact. */
function readsDecisionCsv(store: Store): void {
  const { head } = seedFinished(store);
  const values = [...store.cases.decisionValues(head.id)];
  const caseDecisions = (caseId: string) => values.filter((v) => v[0] === caseId).length;
  const expected = values.map((v, k) => [
    v[0],
    v[1],
    v[6],
    k - values.findIndex((w) => w[0] === v[0]),
    v[7],
    v[11],
    v[9],
    v[12],
    v[13],
    v[14],
    v[15],
    v[16],
    v[17],
    v[8],
    v[10],
    v[3],
    v[2] === 'answered' ? v[4] : null,
    v[2] === 'answered' ? 1 : 0,
    caseDecisions(v[0]),
    v[18],
    v[19],
  ]);
  expect(expected.map((e) => e[5])).toEqual(expect.arrayContaining(['answered', 'failed']));
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  const offered = store.cases.decisionCsv(head.id, (piece) =>
    pieces.push(typeof piece === 'string' ? piece : decoder.decode(piece)),
  );
  expect(offered).toBe(true);
  expect(readDecisionCsv(pieces.join(''))).toEqual(expected);
  expect(errorOf(() => store.cases.decisionCsv('nope', () => undefined)).code).toBe('unknown_run');
}

/** `iterate` gives the cases `runs.get` holds, and may be stopped early. */
function iteratesInRunOrder(store: Store): void {
  const { head } = seedFinished(store);
  const whole = store.runs.get(head.id)!;
  expect([...store.cases.iterate(head.id)]).toEqual(whole.cases);
  // The iteration may stop early and the store stays usable.
  for (const c of store.cases.iterate(head.id)) {
    expect(c.caseId).toBe(whole.cases[0]!.caseId);
    break;
  }
  store.runs.reopen(head.id);
  expect(store.runs.head(head.id)!.status).toBe('running');
}
