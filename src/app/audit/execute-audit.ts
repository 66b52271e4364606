/**
 * Executing an audit plan: loads and validates the checks and transcripts, builds the exact
 * input of every (transcript, check), checkpoints them as pending, then asks the judge one
 * request at a time (10 s for the whole request, retries included; bodies over 6,000 UTF-8
 * bytes are never sent) and saves each verdict before reporting it. It prints nothing.
 */
import { JUDGE_FAILURE_REASONS, judgeFailureCount, judgedNothing } from '../../core/audit/verdict.js';
import { given } from '../../core/given.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checksOfSet, type AuditCheck } from '../../core/audit/check.js';
import { evidenceOf } from '../../core/audit/evidence.js';
import {
  VERDICT_QUESTION_ID,
  askedOptionsOf,
  judgeQuestionOf,
  judgeStateOf,
  questionHashInputOf,
} from '../../core/audit/judge-question.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun, OrderSwapResult } from '../../core/audit/run.js';
import { summarizeAudit } from '../../core/audit/summary.js';
import { checkApplies, type Transcript } from '../../core/audit/transcript.js';
import {
  compareWithLabel,
  parseJudgeAnswer,
  type AuditOutcome,
  type JudgeAnswer,
  type UnavailableReason,
} from '../../core/audit/verdict.js';
import { writeTextFile } from '../write-text-file.js';
import type { WorkReporter } from '../work-reporter.js';
import type { AuditEvent, AuditResultEvent, AuditStartEvent } from '../../core/audit/audit-events.js';
import { DecidekitError } from '../../core/errors.js';
import { optionMention as option, said, words, type Said } from '../../core/message-words.js';
import { refuseMissingLabels, loadTranscripts } from '../../datasets/audit/load-transcripts.js';
import { loadChecks } from '../../datasets/audit/load-checks.js';
import { sampleAuditPaths } from '../../datasets/audit/sample.js';
import { createSystemOneClient, isRunStopping, type SystemOneClient } from '../../protocol/client/client.js';
import { AuthError, MalformedResponseError, SystemOneError, TimeoutError } from '../../protocol/client/errors.js';
import { createFailureStreak, FAILURE_STREAK } from '../../core/failure-streak.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { renderDecideRequest } from '../../protocol/wire/decide-request.js';
import { describeEndpoint, shownUrl, withoutCredentials } from '../../protocol/wire/endpoint.js';
import type { Store } from '../../store/store.js';
import { renderAuditJson } from '../../reports/audit/audit-json.js';
import { renderAuditMarkdown } from '../../reports/audit/audit-markdown.js';
import { refuseUnusableOutDir, type KnownReports } from '../out-dir.js';
import type { ReadFile } from '../output-file.js';
import { wiringOf, type UseCaseWiring } from '../use-case-wiring.js';
import {
  MAX_JUDGE_INPUT_BYTES,
  refuseChangedCheckVersions,
  planAudit,
  type AuditFile,
  type AuditPlan,
  type AuditRequest,
} from './plan-audit.js';

/** An aborted `signal` stops asking, keeps what finished and saves the audit as interrupted. */
export interface ExecuteAuditOptions extends Partial<UseCaseWiring> {
  /** Wall clock for the audit's creation time. */
  readonly clock?: () => Date;
  /** First retry backoff of the judge client (default the client's 500 ms). */
  readonly retryBaseDelayMs?: number;
  /** Write `<audit>.json` and `<audit>.md` here. */
  readonly outDir?: string;
  /** Each judge request about to be sent (`audit_start`) and each verdict saved or reused (`audit_result`). */
  readonly reporter?: AuditReporter;
}

/** The options with their wiring filled in, and the plan's whole-request deadline. */
type AuditWiring = ExecuteAuditOptions & UseCaseWiring & { readonly deadlineMs: number };

export type { AuditEvent, AuditResultEvent, AuditStartEvent };

/** How a running audit is reported: its requests and verdicts as cases (it has no start line of its own). */
export type AuditReporter = WorkReporter<never, AuditEvent>;

export interface AuditOutcomeData {
  readonly run: AuditRun;
  readonly interrupted: boolean;
  /**
   * Why the audit stopped before its end when the judge cannot be asked at all (nothing
   * listening, unknown host, a redirect): the client's message. A new audit that never
   * reached the judge is then not kept; one that did is saved as incomplete.
   */
  readonly stopped: Said | null;
  /** True when the audit is in the store. */
  readonly saved: boolean;
  readonly written: readonly string[];
  readonly writeError: string | null;
}

/** The plan for a request, reading the audit to resume (once, before anything starts). */
export async function planAuditFromStore(request: AuditRequest): Promise<AuditPlan> {
  if (request.resume === undefined || request.storePath === null) return planAudit(request, null);
  const { openStore } = await import('../../store/open-store.js');
  const store = openStore(request.storePath, { mustExist: true });
  try {
    const id = store.resolveId(request.resume, 'audit', {
      command: words`audit ${option('resume')}`,
      storeArg: request.storePath,
    });
    return planAudit(request, store.audits.get(id));
  } finally {
    store.close();
  }
}

interface PlannedItem {
  readonly item: AuditItem;
  readonly check: AuditCheck;
  /** Why nothing is sent, when the input cannot be. */
  readonly skip: { readonly reason: UnavailableReason; readonly message: string } | null;
  /** The order swap's body (options reversed). */
  readonly probeInput: string;
}

/** Runs a planned audit; the caller renders the outcome. */
export async function executeAudit(plan: AuditPlan, asked: ExecuteAuditOptions): Promise<AuditOutcomeData> {
  const options: AuditWiring = { ...wiringOf(asked), deadlineMs: plan.timeoutMs };
  if (options.outDir !== undefined) await refuseUnusableOutDir(options.outDir, resumedReports(plan));
  const { items, config } = await loadAuditWork(plan, options.toolVersion);
  const store: Store | null =
    plan.storePath === null ? null : (await import('../../store/open-store.js')).openStore(plan.storePath);
  let judge: Judge | null = null;
  try {
    const createdAt = plan.resume?.createdAt ?? (options.clock?.() ?? new Date()).toISOString();
    const reusable = reusableRecords(plan);
    const id = openAuditRecord(plan, store, config, createdAt);
    store?.audits.savePending(
      id,
      items.flatMap((p, position) => (reusable(p) === null ? [{ position, item: p.item }] : [])),
    );
    judge = await startJudge(plan, options);
    const t0 = options.now();
    const judged = await judgeItems(items, reusable, judge, plan.orderProbe, options, (record) =>
      store?.audits.saveRecord(id, record),
    );
    const durationMs = (plan.resume?.durationMs ?? 0) + (options.now() - t0);
    const finished = items.flatMap((p) => judged.records.get(keyOf(p.item)) ?? []);
    const pending = items.filter((p) => !judged.records.has(keyOf(p.item))).map((p) => p.item);
    const { interrupted, stopped } = judged;
    const summary = summarizeAudit(config.checks, finished);
    // As a bench run with a failed request: a verdict the judge failed to give (no answer, a
    // malformed or invalid one) leaves the audit incomplete. Input that cannot be judged (no
    // evidence, no messages, too large) is the audit's finding, not a failure, unless nothing
    // at all could be judged: an audit with no verdict is no audit.
    const judgeFailed = judgeFailureCount(summary.unavailable) > 0 || judgedNothing(summary.audited, summary.counts);
    const status = interrupted ? 'interrupted' : stopped !== null || judgeFailed ? 'incomplete' : 'complete';
    // Like a bench run that never reached a decision model: a new audit whose judge could
    // not be asked once is no audit, so nothing is kept.
    const discard = stopped !== null && plan.resume === null && !judged.reachedJudge;
    if (discard) store?.audits.delete(id);
    else store?.audits.finish(id, { status, durationMs });
    const run: AuditRun = {
      id,
      createdAt,
      status,
      label: plan.label,
      durationMs,
      config,
      records: finished,
      pending,
      summary,
    };
    const reports = discard ? { written: [], writeError: null } : await writeReportsOf(run, options.outDir);
    return { run, interrupted, stopped, saved: store !== null && !discard, ...reports };
  } finally {
    await judge?.close();
    store?.close();
  }
}

/** The checks and transcripts read and checked, every item planned, and the audit's config. */
async function loadAuditWork(
  plan: AuditPlan,
  toolVersion: string,
): Promise<{ readonly items: PlannedItem[]; readonly config: AuditConfig }> {
  const sample = sampleAuditPaths();
  const pathOf = (f: AuditFile, which: 'transcripts' | 'checks') => (f.kind === 'sample' ? sample[which] : f.path);
  const checksPath = pathOf(plan.checks, 'checks');
  const transcriptsPath = pathOf(plan.transcripts, 'transcripts');
  const checks = checksOfSet(await loadChecks(checksPath), plan.set);
  const loaded = await loadTranscripts(transcriptsPath);
  refuseMissingLabels(loaded, checks, transcriptsPath);
  if (plan.resume !== null) refuseChangedCheckVersions(plan.resume, checks);
  const model = plan.judge.model;
  const config: AuditConfig = {
    toolVersion,
    judgeEndpoint: plan.judgeEndpoint,
    judgeModel: model,
    judgeKeyUsed: plan.judge.kind === 'remote' && plan.judge.apiKey !== undefined,
    judgeUserAndPasswordUsed:
      plan.judge.kind === 'remote' &&
      plan.judge.apiKey === undefined &&
      withoutCredentials(plan.judge.baseUrl).basicAuthorization !== null,
    set: plan.set,
    orderProbe: plan.orderProbe,
    transcriptsFile: plan.transcripts.kind === 'sample' ? 'sample' : plan.transcripts.path,
    checksFile: plan.checks.kind === 'sample' ? 'sample' : plan.checks.path,
    checks: checks.map((c) => ({
      id: c.id,
      questionSha256: sha256(questionHashInputOf(c)),
      scope: c.scope,
      options: c.options,
    })),
  };
  return { items: planItems(loaded.transcripts, checks, model), config };
}

/** The reports of a resumed audit (its id known before the work), checked against the store and inputs. */
function resumedReports(plan: AuditPlan): KnownReports | undefined {
  if (plan.resume === null) return undefined;
  const inputs: ReadFile[] = [];
  if (plan.storePath !== null) inputs.push({ named: option('storePath'), path: plan.storePath });
  if (plan.transcripts.kind === 'path') inputs.push({ named: option('transcriptsPath'), path: plan.transcripts.path });
  if (plan.checks.kind === 'path') inputs.push({ named: option('checksPath'), path: plan.checks.path });
  return { id: plan.resume.id, extensions: ['json', 'md'], inputs };
}

/** The resumed audit's record of an item, when its check and question are unchanged; else null. */
function reusableRecords(plan: AuditPlan): (p: PlannedItem) => AuditRecord | null {
  const saved = new Map<string, AuditRecord>();
  for (const r of plan.resume?.records ?? []) saved.set(keyOf(r), r);
  return (p) => {
    const r = saved.get(keyOf(p.item));
    // A verdict the judge failed to give is asked again: that is what completes the audit.
    const judgeFailed = r?.outcome.status === 'unavailable' && JUDGE_FAILURE_REASONS.includes(r.outcome.reason);
    return r !== undefined && !judgeFailed && r.checkId === p.item.checkId && r.questionSha256 === p.item.questionSha256
      ? r
      : null;
  };
}

/** The audit's id: the resumed one reopened, a new one in the store, or an unsaved one's. */
function openAuditRecord(plan: AuditPlan, store: Store | null, config: AuditConfig, createdAt: string): string {
  if (plan.resume !== null) {
    store?.audits.reopen(plan.resume.id, config);
    return plan.resume.id;
  }
  return (
    store?.audits.create({ config, label: plan.label, createdAt }) ??
    `unsaved-audit-${createdAt.replace(/[-:.TZ]/g, '').slice(0, 14)}`
  );
}

/** The judge asked: its client, the name the reporter shows, and what to close. */
interface Judge {
  readonly client: SystemOneClient;
  readonly name: string;
  close(): Promise<void>;
}

/** Starts the embedded judge server when the plan has one, and the one-connection judge client. */
async function startJudge(plan: AuditPlan, options: AuditWiring): Promise<Judge> {
  const server: ReferenceServer | null =
    plan.judge.kind === 'embedded'
      ? await startReferenceServer({ host: '127.0.0.1', port: 0, model: plan.judge.model })
      : null;
  try {
    const client = createSystemOneClient({
      baseUrl: server ? server.url : (plan.judge as { baseUrl: string }).baseUrl,
      ...(plan.judge.kind === 'remote' && plan.judge.apiKey !== undefined ? { apiKey: plan.judge.apiKey } : {}),
      timeoutMs: options.deadlineMs,
      connections: 1,
      ...given({ retryBaseDelayMs: options.retryBaseDelayMs }),
    });
    const name = `judge ${JSON.stringify(plan.judge.model ?? 'server default model')} at ${server ? `${describeEndpoint(plan.judgeEndpoint)} (${server.url})` : shownUrl(client.endpoint)}`;
    return {
      client,
      name,
      close: async () => {
        await client.close();
        await server?.close();
      },
    };
  } catch (err) {
    await server?.close();
    throw err;
  }
}

/** What judging the items came to: the records by item, and why it ended early, if it did. */
interface JudgedItems {
  readonly records: Map<string, AuditRecord>;
  readonly interrupted: boolean;
  readonly stopped: Said | null;
  /** A verdict of this execution came from a request the judge answered (skipped inputs send nothing). */
  readonly reachedJudge: boolean;
}

/** Judges the items in order, reusing the resumed audit's records and saving each new one before reporting it. */
async function judgeItems(
  items: readonly PlannedItem[],
  reusable: (p: PlannedItem) => AuditRecord | null,
  judge: Judge,
  orderProbe: boolean,
  options: AuditWiring,
  save: (record: AuditRecord) => void,
): Promise<JudgedItems> {
  const records = new Map<string, AuditRecord>();
  let interrupted = false;
  let stopped: Said | null = null;
  let reachedJudge = false;
  // The first requests, while every one of them times out (bench's stop rule, on timeouts).
  const timeouts = createFailureStreak(FAILURE_STREAK);
  for (const p of items) {
    const kept = reusable(p);
    if (kept !== null) {
      records.set(keyOf(p.item), kept);
      options.reporter?.onCase?.({ type: 'audit_result', record: kept, saved: true });
      continue;
    }
    if (options.signal.aborted) {
      interrupted = true;
      break;
    }
    const record = await judgeItem(p, judge.client, judge.name, orderProbe, options);
    if (record === null) {
      interrupted = true;
      break;
    }
    if ('stopped' in record) {
      stopped = record.stopped;
      break;
    }
    if (record.elapsedMs !== null) reachedJudge = true;
    save(record);
    records.set(keyOf(p.item), record);
    options.reporter?.onCase?.({ type: 'audit_result', record, saved: false });
    if (record.elapsedMs === null) continue; // nothing was sent
    const timedOut = record.outcome.status === 'unavailable' && record.outcome.reason === 'timeout';
    if (!timedOut) timeouts.broken();
    else if (timeouts.failed('timeout')) {
      stopped = said(
        words`the first ${FAILURE_STREAK} judge requests all timed out (no answer within ${options.deadlineMs / 1000} s each): the judge accepts connections but does not answer`,
      );
      break;
    }
  }
  return { records, interrupted, stopped, reachedJudge };
}

/** The audit's reports written when there is a folder for them; a failed write is reported, not thrown. */
async function writeReportsOf(
  run: AuditRun,
  outDir: string | undefined,
): Promise<{ readonly written: readonly string[]; readonly writeError: string | null }> {
  if (outDir === undefined) return { written: [], writeError: null };
  try {
    return { written: await writeAuditReports(run, outDir), writeError: null };
  } catch (err) {
    return { written: [], writeError: err instanceof Error ? err.message : String(err) };
  }
}

/** Every (transcript, check) the selected checks apply to, in file order, with its exact input. */
export function planItems(
  transcripts: readonly Transcript[],
  checks: readonly AuditCheck[],
  model: string | null,
): PlannedItem[] {
  const out: PlannedItem[] = [];
  for (const t of transcripts) {
    for (const check of checks) {
      if (!checkApplies(check, t)) continue;
      const evidence = evidenceOf(t, check.scope);
      const question = judgeQuestionOf(check, 'forward');
      const texts = evidence.kind === 'texts' ? evidence.texts : [];
      const bodyOf = (order: 'forward' | 'reversed') =>
        renderDecideRequest({
          ...(model === null ? {} : { model }),
          state: judgeStateOf(check.scope, texts),
          questions: [[VERDICT_QUESTION_ID, judgeQuestionOf(check, order)]],
        });
      const input = evidence.kind === 'texts' ? bodyOf('forward') : '';
      const bytes = Buffer.byteLength(input, 'utf8');
      const skip =
        evidence.kind === 'none'
          ? { reason: 'no_evidence' as const, message: `no assistant text in scope ${check.scope}` }
          : evidence.kind === 'empty'
            ? { reason: 'empty_messages' as const, message: `only empty assistant messages in scope ${check.scope}` }
            : bytes > MAX_JUDGE_INPUT_BYTES
              ? {
                  reason: 'input_too_large' as const,
                  message: `the request is ${bytes} UTF-8 bytes, over the ${MAX_JUDGE_INPUT_BYTES}-byte limit (not sent, not truncated)`,
                }
              : null;
      out.push({
        check,
        skip,
        probeInput: evidence.kind === 'texts' ? bodyOf('reversed') : '',
        item: {
          transcriptId: t.id,
          tags: t.tags,
          checkId: check.id,
          questionSha256: sha256(questionHashInputOf(check)),
          scope: check.scope,
          questionJson: JSON.stringify(question),
          input,
          label: t.labels[check.id]!,
        },
      });
    }
  }
  return out;
}

/**
 * Judges one item (and its order swap); null when the user interrupted mid-request, the
 * reason when the judge cannot be asked at all.
 */
async function judgeItem(
  p: PlannedItem,
  client: SystemOneClient,
  judge: string,
  orderProbe: boolean,
  options: AuditWiring,
): Promise<AuditRecord | { readonly stopped: Said } | null> {
  if (p.skip !== null)
    return { ...p.item, outcome: { status: 'unavailable', ...p.skip }, elapsedMs: null, orderSwap: null };
  const ask = async (body: string, options_: readonly string[], orderSwap: boolean) => {
    options.reporter?.onCase?.({
      type: 'audit_start',
      transcriptId: p.item.transcriptId,
      checkId: p.item.checkId,
      judge,
      orderSwap,
    });
    return askJudge(client, body, options_, options);
  };
  const first = await ask(p.item.input, askedOptionsOf(p.check, 'forward'), false);
  if (first.kind === 'interrupted') return null;
  if (first.kind === 'stopped') return { stopped: first.why };
  const outcome: AuditOutcome =
    first.kind === 'answer'
      ? compareWithLabel(first.answer, p.item.label)
      : { status: 'unavailable', reason: first.reason, message: first.message };
  let orderSwap: OrderSwapResult | null = null;
  if (orderProbe && first.kind === 'answer') {
    const second = await ask(p.probeInput, askedOptionsOf(p.check, 'reversed'), true);
    if (second.kind === 'interrupted') return null;
    if (second.kind === 'stopped') return { stopped: second.why };
    orderSwap =
      second.kind === 'answer'
        ? { kind: 'answered', answer: second.answer, elapsedMs: second.elapsedMs }
        : { kind: 'unavailable', reason: second.reason, message: second.message };
  }
  return { ...p.item, outcome, elapsedMs: first.elapsedMs, orderSwap };
}

type Asked =
  | { readonly kind: 'answer'; readonly answer: JudgeAnswer; readonly elapsedMs: number }
  | {
      readonly kind: 'unavailable';
      readonly reason: UnavailableReason;
      readonly message: string;
      readonly elapsedMs: number;
    }
  | { readonly kind: 'interrupted' }
  /** Nothing can be asked at this address (nothing listening, unknown host, a redirect). */
  | { readonly kind: 'stopped'; readonly why: Said };

/** One judge request under the whole-request deadline (retries included). */
async function askJudge(
  client: SystemOneClient,
  body: string,
  asked: readonly string[],
  options: AuditWiring,
): Promise<Asked> {
  const { deadlineMs } = options;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('deadline')), deadlineMs);
  const signal = AbortSignal.any([options.signal, deadline.signal]);
  const t0 = options.now();
  try {
    const { body: decoded } = await client.send(body, signal);
    const elapsedMs = options.now() - t0;
    const parsed = parseJudgeAnswer(decoded, VERDICT_QUESTION_ID, asked);
    return parsed.ok
      ? { kind: 'answer', answer: parsed.answer, elapsedMs }
      : { kind: 'unavailable', reason: parsed.reason, message: parsed.message, elapsedMs };
  } catch (err) {
    const elapsedMs = options.now() - t0;
    if (options.signal.aborted) return { kind: 'interrupted' };
    if (deadline.signal.aborted || err instanceof TimeoutError)
      return {
        kind: 'unavailable',
        reason: 'timeout',
        message: `no valid answer within the ${deadlineMs / 1000} s deadline (retries included)`,
        elapsedMs,
      };
    // The judge's key has its own variable: the client's hint names the benchmark's option.
    if (err instanceof AuthError && err.sent === 'nothing')
      return {
        kind: 'stopped',
        why: said(
          words`authentication failed: ${err.context.endpoint} answered HTTP ${err.context.status ?? 401} (no judge key was configured: set DECIDEKIT_JUDGE_API_KEY, or give the judge's user and password in ${option('baseUrl')})`,
        ),
      };
    if (isRunStopping(err) && err instanceof Error) return { kind: 'stopped', why: said(words`${err}`) };
    if (err instanceof MalformedResponseError)
      return { kind: 'unavailable', reason: 'malformed_answer', message: err.shortMessage, elapsedMs };
    if (err instanceof SystemOneError)
      return { kind: 'unavailable', reason: 'request_error', message: err.shortMessage, elapsedMs };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Writes `<audit>.json` and `<audit>.md` into `dir`. */
export async function writeAuditReports(run: AuditRun, dir: string): Promise<string[]> {
  const files = [
    { path: join(dir, `${run.id}.json`), text: () => renderAuditJson(run) },
    { path: join(dir, `${run.id}.md`), text: () => renderAuditMarkdown(run) },
  ];
  const failure = (err: unknown): string =>
    `cannot write the audit reports into ${dir} (${fileErrorWords(err, 'write failed')})`;
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new DecidekitError('write_failed', failure(err), { cause: err });
  }
  for (const f of files) await writeTextFile(f.path, f.text(), 'the audit report', { failure });
  return files.map((f) => f.path);
}

function keyOf(item: { readonly transcriptId: string; readonly checkId: string }): string {
  return `${item.transcriptId}\u0000${item.checkId}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
