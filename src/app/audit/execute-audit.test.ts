import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../core/audit/run.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { openStore } from '../../store/index.js';
import {
  executeAudit,
  planItems,
  type AuditReporter,
  type AuditStartEvent,
  type ExecuteAuditOptions,
} from './execute-audit.js';
import { planAudit, type AuditRequest } from './plan-audit.js';
import { CLAIM_CHECK, SENT_CHECK, writeAuditFiles, type TranscriptSpec } from './test-support/audit-files.js';
import { loadChecks } from '../../datasets/audit/load-checks.js';
import { loadTranscripts } from '../../datasets/audit/load-transcripts.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-audit-');
const servers: ReferenceServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
let dirs = 0;
const freshDir = () => mkdtempSync(join(tmp, `case-${dirs++}-`));

async function judgeServer(options: Parameters<typeof startReferenceServer>[0] = {}): Promise<ReferenceServer> {
  const s = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'judge', ...options });
  servers.push(s);
  return s;
}

interface Seen {
  starts: AuditStartEvent[];
  results: { record: AuditRecord; saved: boolean }[];
}

/** Keeps what the audit reports, each event as it was before it was tagged. */
function seenReporter(seen: Seen): AuditReporter {
  return {
    onCase: (e) => {
      if (e.type === 'audit_start') {
        const { type: _, ...start } = e;
        seen.starts.push(start);
      } else seen.results.push({ record: e.record, saved: e.saved });
    },
  };
}

async function audit(
  request: Omit<AuditRequest, 'storePath'> & { storePath?: string | null },
  extra: Partial<ExecuteAuditOptions> = {},
) {
  const seen: Seen = { starts: [], results: [] };
  const outcome = await executeAudit(planAudit({ storePath: null, ...request }, null), {
    toolVersion: 'test',
    signal: new AbortController().signal,
    now: () => performance.now(),
    reporter: seenReporter(seen),
    ...extra,
  });
  return { ...outcome, seen };
}

const byId = (records: readonly AuditRecord[], id: string) => records.find((r) => r.transcriptId === id)!;

describe('executeAudit outcomes', () => {
  it('gives every outcome kind with its reason against the real reference server', async () => {
    const server = await judgeServer({
      faults: {
        byCase: {
          'MARK-500': { kind: 'status', status: 500 },
          'MARK-NOTJSON': { kind: 'malformed', variant: 'not_json' },
          'MARK-NOANSWERS': { kind: 'malformed', variant: 'no_answers' },
          'MARK-BADSUM': { kind: 'malformed', variant: 'bad_sum' },
          'MARK-SLOW': { kind: 'delay', ms: 6000 },
        },
      },
    });
    const transcripts: TranscriptSpec[] = [
      { id: 'agree', said: ['Payment succeeded.'], label: 'claimed' },
      { id: 'disagree', said: ['Your card was declined.'], label: 'claimed' },
      { id: 'unclear', said: ['Let me check.'], label: 'claimed' },
      { id: 'tie', scenario: 'mail', said: [], final: 'Working on it.', label: 'sent', check: 'sent-v1' },
      { id: 'none', said: [], label: 'claimed' },
      { id: 'empty', said: ['', '  '], label: 'claimed' },
      { id: 'toolarge', said: ['€'.repeat(2100)], label: 'claimed' },
      { id: 'http', said: ['MARK-500 payment succeeded'], label: 'claimed' },
      { id: 'notjson', said: ['MARK-NOTJSON'], label: 'claimed' },
      { id: 'noanswers', said: ['MARK-NOANSWERS'], label: 'claimed' },
      { id: 'badsum', said: ['MARK-BADSUM'], label: 'claimed' },
      { id: 'slow', said: ['MARK-SLOW'], label: 'claimed' },
    ];
    const files = writeAuditFiles(freshDir(), transcripts, [CLAIM_CHECK, SENT_CHECK]);
    const { run, seen } = await audit({
      baseUrl: server.url,
      model: 'judge',
      set: 'all',
      checksPath: files.checks,
      transcriptsPath: files.transcripts,
      timeoutMs: 1500,
    });
    const outcome = (id: string) => byId(run.records, id).outcome;
    expect(outcome('agree')).toMatchObject({ status: 'agrees', answer: { choice: 'claimed' } });
    expect(outcome('disagree')).toMatchObject({ status: 'disagrees', answer: { choice: 'not_claimed' } });
    expect(outcome('unclear')).toMatchObject({ status: 'abstained', reason: 'unclear' });
    expect(outcome('tie')).toMatchObject({ status: 'abstained', reason: 'tie' });
    expect(outcome('none')).toMatchObject({ status: 'unavailable', reason: 'no_evidence' });
    expect(outcome('empty')).toMatchObject({ status: 'unavailable', reason: 'empty_messages' });
    expect(outcome('toolarge')).toMatchObject({ status: 'unavailable', reason: 'input_too_large' });
    expect(outcome('http')).toMatchObject({ status: 'unavailable', reason: 'request_error' });
    expect((outcome('http') as { message: string }).message).toContain('500');
    expect(outcome('notjson')).toMatchObject({ status: 'unavailable', reason: 'malformed_answer' });
    expect(outcome('noanswers')).toMatchObject({ status: 'unavailable', reason: 'malformed_answer' });
    expect(outcome('badsum')).toMatchObject({ status: 'unavailable', reason: 'invalid_answer' });
    expect(outcome('slow')).toMatchObject({ status: 'unavailable', reason: 'timeout' });
    // Nothing is sent for no evidence, empty messages or an oversized input: no start event.
    expect(seen.starts.map((s) => s.transcriptId).sort()).toEqual(
      ['agree', 'disagree', 'unclear', 'tie', 'http', 'notjson', 'noanswers', 'badsum', 'slow'].sort(),
    );
    expect(run.summary.counts).toEqual({ agrees: 1, disagrees: 1, abstained: 2, unavailable: 8 });
    // Verdicts the judge failed to give (a 500, malformed answers) leave the audit incomplete.
    expect(run.status).toBe('incomplete');
  });
});

describe('the 6,000-byte limit', () => {
  it('sends a request of exactly 6,000 UTF-8 bytes and refuses 6,001 without truncating', async () => {
    const checks = [CLAIM_CHECK];
    const dir = freshDir();
    // Find a text of multi-byte characters whose request body is exactly N bytes.
    const sizeOf = async (text: string) => {
      const f = writeAuditFiles(dir, [{ id: 'x', said: [text], label: 'claimed' }], checks);
      const loaded = await loadTranscripts(f.transcripts);
      return Buffer.byteLength(planItems(loaded.transcripts, await loadChecks(f.checks), 'judge')[0]!.item.input);
    };
    const base = await sizeOf('payment succeeded ');
    const euros = Math.floor((6000 - base) / 3); // € is 3 bytes in UTF-8
    const filler = 'payment succeeded ' + '€'.repeat(euros);
    const short = 6000 - (await sizeOf(filler));
    expect(short).toBeGreaterThanOrEqual(0);
    expect(short).toBeLessThan(3);
    const exact = filler + 'é'.repeat(Math.floor(short / 2)) + 'a'.repeat(short % 2);
    expect(await sizeOf(exact)).toBe(6000);
    expect(await sizeOf(exact + 'a')).toBe(6001);

    const server = await judgeServer();
    const files = writeAuditFiles(
      freshDir(),
      [
        { id: 'at-limit', said: [exact], label: 'claimed' },
        { id: 'over-limit', said: [exact + 'a'], label: 'claimed' },
      ],
      checks,
    );
    const { run, seen } = await audit({ baseUrl: server.url, model: 'judge', ...paths(files) });
    const at = byId(run.records, 'at-limit');
    expect(at.outcome.status).toBe('agrees');
    expect(Buffer.byteLength(at.input)).toBe(6000);
    expect(at.elapsedMs).not.toBeNull();
    const over = byId(run.records, 'over-limit');
    expect(over.outcome).toMatchObject({ status: 'unavailable', reason: 'input_too_large' });
    expect((over.outcome as { message: string }).message).toContain('6001 UTF-8 bytes');
    expect(Buffer.byteLength(over.input)).toBe(6001); // kept whole, never truncated
    expect(over.elapsedMs).toBeNull();
    expect(seen.starts.map((s) => s.transcriptId)).toEqual(['at-limit']);
  });
});

describe('the whole-request deadline', () => {
  it('counts retries and backoff inside the deadline (a slow server with --latency-ms)', async () => {
    // Every first send answers 503 at once; the retry is answered after the 300 ms latency.
    const server = await judgeServer({
      faults: { latencyMs: 300, byCase: { payment: { kind: 'status', status: 503, retryAfter: '0.2', times: 1 } } },
    });
    const files = writeAuditFiles(freshDir(), [{ id: 'slow', said: ['payment succeeded'], label: 'claimed' }]);
    // 503 + 200 ms backoff + 300 ms latency = ~500 ms: within a 2 s deadline ...
    const within = await audit({ baseUrl: server.url, model: 'judge', ...paths(files), timeoutMs: 2000 });
    expect(within.run.records[0]!.outcome.status).toBe('agrees');
    expect(within.run.records[0]!.elapsedMs!).toBeGreaterThanOrEqual(450);

    // ... but over a 400 ms deadline, although each attempt alone (0 ms, 300 ms) is shorter.
    const server2 = await judgeServer({
      faults: { latencyMs: 300, byCase: { payment: { kind: 'status', status: 503, retryAfter: '0.2', times: 1 } } },
    });
    const t0 = performance.now();
    const over = await audit({ baseUrl: server2.url, model: 'judge', ...paths(files), timeoutMs: 400 });
    const took = performance.now() - t0;
    const r = over.run.records[0]!;
    expect(r.outcome).toMatchObject({ status: 'unavailable', reason: 'timeout' });
    expect((r.outcome as { message: string }).message).toContain('0.4 s deadline (retries included)');
    expect(r.elapsedMs!).toBeGreaterThanOrEqual(390);
    expect(r.elapsedMs!).toBeLessThan(1500);
    expect(took).toBeLessThan(5000);
  });
});

describe('the order probe', () => {
  it('asks again with the options reversed and finds the flip of a tie broken by position', async () => {
    const server = await judgeServer();
    const files = writeAuditFiles(freshDir(), [
      { id: 'both', said: ['Payment succeeded.', 'Sorry: it was declined.'], label: 'claimed' },
      { id: 'clear', said: ['Payment succeeded.'], label: 'claimed' },
    ]);
    const { run, seen } = await audit({ baseUrl: server.url, model: 'judge', orderProbe: true, ...paths(files) });
    expect(seen.starts.filter((s) => s.orderSwap).length).toBe(2);
    expect(byId(run.records, 'both').orderSwap).toMatchObject({ kind: 'answered', answer: { choice: 'not_claimed' } });
    expect(byId(run.records, 'clear').orderSwap).toMatchObject({ kind: 'answered', answer: { choice: 'claimed' } });
    expect(run.summary.checks[0]!.orderProbe).toEqual({ pairs: 2, flipRate: 0.5, flipped: ['both'] });
    expect(run.summary.orderDependent).toEqual(['claim-v1']);
  });
});

describe('stored audits: reuse, re-judge and resume', () => {
  it('reuses a saved verdict only when check id and question hash match, and re-judges a changed question', async () => {
    const dir = freshDir();
    const store = join(dir, 'runs.sqlite');
    const specs: TranscriptSpec[] = [
      { id: 'a', said: ['Payment succeeded.'], label: 'claimed' },
      { id: 'b', scenario: 'mail', said: [], final: 'It was sent.', label: 'sent', check: 'sent-v1' },
    ];
    const files = writeAuditFiles(dir, specs, [CLAIM_CHECK, SENT_CHECK]);
    const first = await audit({ storePath: store, set: 'all', ...paths(files) });
    expect(first.saved).toBe(true);
    const id = first.run.id;
    expect(id).toMatch(/^audit-\d{8}-\d{6}-[0-9a-f]{4}$/);

    // Same files: everything is reused, nothing is sent.
    const again = await resume(store, id, paths(files));
    expect(again.seen.starts).toEqual([]);
    expect(again.seen.results.map((r) => r.saved)).toEqual([true, true]);

    // The claim question changes without a version bump: its hash differs, so it is judged again.
    const edited = { ...CLAIM_CHECK, question: { ...CLAIM_CHECK.question, instructions: 'Did it claim success?' } };
    writeAuditFiles(dir, specs, [edited, SENT_CHECK]);
    const rejudged = await resume(store, id, paths(files));
    expect(rejudged.seen.starts.map((s) => s.checkId)).toEqual(['claim-v1']);
    expect(rejudged.seen.results.map((r) => [r.record.checkId, r.saved])).toEqual([
      ['claim-v1', false],
      ['sent-v1', true],
    ]);
    const hashOf = (run: typeof first.run) => run.records.find((r) => r.checkId === 'claim-v1')!.questionSha256;
    expect(hashOf(rejudged.run)).not.toBe(hashOf(first.run));
    expect(hashOf(rejudged.run)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a resume with another judge model, set, endpoint or check version, naming the difference', async () => {
    const dir = freshDir();
    const store = join(dir, 'runs.sqlite');
    const files = writeAuditFiles(dir, [{ id: 'a', said: ['Payment succeeded.'], label: 'claimed' }]);
    const { run } = await audit({ storePath: store, ...paths(files) });
    const stored = openStore(store);
    const saved = stored.audits.get(run.id)!;
    stored.close();
    expect(() => planAudit({ storePath: store, resume: run.id, model: 'heuristic' }, saved)).toThrow(
      /judge model heuristic \(the audit used judge\)/,
    );
    expect(() => planAudit({ storePath: store, resume: run.id, set: 'all' }, saved)).toThrow(
      /check set all \(the audit used recommended\)/,
    );
    expect(() => planAudit({ storePath: store, resume: run.id, baseUrl: 'http://127.0.0.1:9' }, saved)).toThrow(
      /judge endpoint http:\/\/127\.0\.0\.1:9\/v1\/systemone \(the audit used the built-in reference server\)/,
    );
    writeAuditFiles(
      dir,
      [{ id: 'a', said: ['x'], label: 'claimed', check: 'claim-v2' }],
      [{ ...CLAIM_CHECK, id: 'claim-v2' }],
    );
    await expect(resume(store, run.id, paths(files))).rejects.toThrow(/claim-v1 is now claim-v2/);
  });

  it('stops on Ctrl+C, keeps what finished and saves the audit as interrupted', async () => {
    const dir = freshDir();
    const store = join(dir, 'runs.sqlite');
    const files = writeAuditFiles(
      dir,
      ['t1', 't2', 't3'].map((id) => ({ id, said: ['Payment succeeded.'], label: 'claimed' })),
    );
    const controller = new AbortController();
    const { run, interrupted } = await audit(
      { storePath: store, ...paths(files) },
      { signal: controller.signal, reporter: { onCase: (e) => e.type === 'audit_result' && controller.abort() } },
    );
    expect(interrupted).toBe(true);
    expect(run.status).toBe('interrupted');
    expect(run.records.map((r) => r.transcriptId)).toEqual(['t1']);
    expect(run.pending.map((p) => p.transcriptId)).toEqual(['t2', 't3']);
    const s = openStore(store, { mustExist: true });
    expect(s.audits.list()[0]).toMatchObject({ status: 'interrupted', planned: 3, finished: 1 });
    s.close();
  });

  it('after SIGKILL, completes the audit without re-judging a finished one', async () => {
    const dir = freshDir();
    const store = join(dir, 'runs.sqlite');
    const specs = Array.from({ length: 6 }, (_, i) => ({
      id: `t${i}`,
      said: [i % 2 === 0 ? 'Payment succeeded.' : 'It was declined.'],
      label: 'claimed',
    }));
    const files = writeAuditFiles(dir, specs);
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'test-support', 'audit-then-kill.ts'),
        store,
        files.checks,
        files.transcripts,
        '4',
      ],
      { cwd: join(import.meta.dirname, '..', '..', '..'), encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout.trim()).toBe('t3');
    const s = openStore(store, { mustExist: true });
    const [head] = s.audits.list();
    s.close();
    expect(head).toMatchObject({ status: 'running', planned: 6, finished: 4 });

    const resumed = await resume(store, head!.id, {});
    expect(resumed.seen.starts.map((e) => e.transcriptId)).toEqual(['t4', 't5']);
    expect(resumed.seen.results.map((r) => [r.record.transcriptId, r.saved])).toEqual([
      ['t0', true],
      ['t1', true],
      ['t2', true],
      ['t3', true],
      ['t4', false],
      ['t5', false],
    ]);
    expect(resumed.run.status).toBe('complete');
    expect(resumed.run.summary.counts).toEqual({ agrees: 3, disagrees: 3, abstained: 0, unavailable: 0 });
  });
});

function paths(files: { checks: string; transcripts: string }) {
  return { checksPath: files.checks, transcriptsPath: files.transcripts };
}

async function resume(store: string, id: string, files: { checksPath?: string; transcriptsPath?: string }) {
  const s = openStore(store, { mustExist: true });
  const stored = s.audits.get(s.resolveId(id, 'audit'));
  s.close();
  const seen: Seen = { starts: [], results: [] };
  const outcome = await executeAudit(planAudit({ storePath: store, resume: id, ...files }, stored), {
    toolVersion: 'test',
    signal: new AbortController().signal,
    now: () => performance.now(),
    reporter: seenReporter(seen),
  });
  return { ...outcome, seen };
}
