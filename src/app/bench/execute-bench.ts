/**
 * Executing a benchmark plan: checks the dataset (pass 1, no case kept), opens the store, starts the embedded
 * server when there is no base URL, streams the cases (pass 2) through the runner (each finished case
 * checkpointed before it is counted), finishes the run in the store and writes `--out`
 * reports. It prints nothing: progress and notes go to the callbacks, the result is data.
 */
import { given } from '../../core/given.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunProgress } from '../../core/bench/progress.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { isFiltered, type CaseSource, type ReplicaSetAside, type ReportedRun } from '../../core/bench/run.js';
import { RunAccumulator, type RunTotals } from '../../core/bench/run-accumulator.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import {
  mapWordText,
  optionMention as option,
  said,
  spellForLibrary,
  words,
  type MessageWords,
  type Said,
} from '../../core/message-words.js';
import {
  createSystemOneClient,
  elapsedMsOf,
  failureOf,
  isCaseSpecificRejection,
  isRunStopping,
  type SystemOneClient,
} from '../../protocol/client/client.js';
import { InvalidBaseUrlError } from '../../protocol/client/errors.js';
import { formatEndpoint, hideHost, shownUrl } from '../../protocol/wire/endpoint.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { scanBenchDataset, type ScannedBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import type { CaseReader } from '../../datasets/typed-decisions/case-reader.js';
import type { CaseEntry } from '../../datasets/typed-decisions/scan-cases.js';
import { runBenchmark, type CaseQueue, type Replica, type RunOutcome } from '../../runner/run-benchmark.js';
import { fingerprintOf } from '../../store/fingerprint.js';
import { checkResumable } from '../../store/resume-check.js';
import { claimStoredRun, type RunClaim, type RunClaimOwner } from '../../store/run-claim.js';
import type { AskedBy } from '../../store/record-kind.js';
import type { CaseWriter, Store } from '../../store/store.js';
import { summarizeOptionsOf, summarizeRun } from '../../store/run-summary.js';
import { analyzeRun } from './run-analysis.js';
import type { ConventionChoice } from '../../core/stats/conventions.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import type { FinishedBench } from '../../core/bench/finished-bench.js';
import { StoreWriteError } from '../../store/store-errors.js';
import { ReportTraces } from './report-traces.js';
import { refuseMixedReplicas } from './replica-identity.js';
import { CaseSpool } from './case-spool.js';
import { settleRun, type Settlement } from './settle-run.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { writeTextPieces } from '../write-text-file.js';
import type { BenchStart } from '../../core/bench/bench-start.js';
import type { WorkReporter } from '../work-reporter.js';
import {
  planBench,
  replicaNameOf,
  runConfigOf,
  selectCases,
  startRun,
  type BenchPlan,
  type BenchRequest,
  type ResumableRun,
  type RunStart,
} from './plan-bench.js';
import { datasetSourceOf } from '../dataset-choice.js';
import { refuseUnusableOutDir, type KnownReports } from '../out-dir.js';
import type { ReadFile } from '../output-file.js';
import { wiringOf, type UseCaseWiring } from '../use-case-wiring.js';
import { benchResumeCommand } from '../../core/command-hints.js';
import { recalibrateCase, type RunQuestion } from '../../core/case-recalibration.js';
import type { RunCalibration } from '../../core/calibration-map.js';
import { loadRunCalibration, refuseUnfitCalibration } from '../run-calibration.js';
import { loadCalibrationMap } from '../../datasets/calibration-map-file.js';

export interface ExecuteBenchOptions extends Partial<UseCaseWiring> {
  /** Where `typed-decisions` is cached; needed only for that dataset. */
  readonly cacheDir?: string;
  /** Wall clock for the run's creation time. */
  readonly clock?: () => Date;
  /** Write `<run>.json`, `<run>.md` and `<run>.html` here (created when missing). */
  readonly outDir?: string;
  readonly redactHost?: boolean;
  /**
   * How the run's numbers are stated: the conventions chosen for this report (a new run
   * records the plan's) and whether to compute intervals. Default: the run's own, intervals on.
   */
  readonly statistics?: { readonly choice: ConventionChoice; readonly intervals: boolean };
  /** What is about to be sent where, the progress after each case, notes, and the end of sending. */
  readonly reporter?: BenchReporter;
  /**
   * The caller reads the finished run's cases (`outcome.run.cases`, e.g. to print JSON).
   * With a store they are read back from it page by page; without one they are kept in a
   * temp file until `outcome.dispose()`. Default false: without a store and without `--out`,
   * the cases are not kept at all (the summary and the report lists come from accumulators).
   */
  readonly readCases?: boolean;
  /**
   * This process, to claim the run it sends (a claim file beside the store): a resume of a
   * run another live process is sending is refused instead of sending its cases twice.
   * Default: no claim.
   */
  readonly claimOwner?: RunClaimOwner;
}

type BenchWiring = ExecuteBenchOptions & UseCaseWiring;

export type { BenchStart };

/** How a running benchmark is reported: its start line, its progress after each case. */
export type BenchReporter = WorkReporter<BenchStart, RunProgress>;

export type BenchOutcome =
  | (FinishedBench & {
      readonly kind: 'finished';
      /** Releases what holds the cases (a temp file without a store); call when done with `run`. */
      readonly dispose: () => void;
    })
  | ({
      /**
       * Nothing more was sent: the server does not serve decision models (404/405/501), the
       * key is refused, nothing listens there, it redirects, or it rejected the first cases alike.
       */
      readonly kind: 'stopped';
      /** The run kept as incomplete, to resume (null when nothing was kept, or it is not resumable as is). */
      readonly incompleteRunId: string | null;
    } & Said);

/** How long finished cases are gathered for one store transaction. */
export const GROUP_COMMIT_MS = 50;

/** SQLite is loaded only when a run is kept (and then once). */
let loadedStoreModule: typeof import('../../store/open-store.js') | null = null;

/** Runs a planned benchmark; the caller renders the outcome. */
export async function executeBench(plan: BenchPlan, asked: ExecuteBenchOptions): Promise<BenchOutcome> {
  // An aborted signal stops sending, keeps what finished and saves the run as interrupted.
  const options = wiringOf(asked);
  if (options.outDir !== undefined) await refuseUnusableOutDir(options.outDir, resumedReports(plan));
  const scanned = await scanAndSelect(plan, options.cacheDir);
  const { dataset, selected } = scanned;
  plan = scanned.plan;
  // Before the store opens or the server starts: a map must have a group for every question sent.
  if (plan.calibration !== undefined)
    refuseUnfitCalibration(
      plan.calibration,
      questionsSent(dataset.questionTypes, selected),
      `dataset ${dataset.info.id}`,
      FIT_HINT,
    );
  for (const note of [...(plan.notes ?? []), ...scanned.notes]) options.reporter?.onNote?.(spellForLibrary(note), note);
  // SQLite is loaded only when the run is kept; opened before the server starts, so a bad
  // store path never leaves a server running.
  loadedStoreModule ??= plan.storePath === null ? null : await import('../../store/open-store.js');
  const store: Store | null = plan.storePath === null ? null : loadedStoreModule!.openStore(plan.storePath);
  let writer: CaseWriter | null = null;
  let server: ReferenceServer | null = null;
  const claims: RunClaim[] = [];
  const claim = (runId: string): void => {
    if (store === null || options.claimOwner === undefined) return;
    const since = (options.clock?.() ?? new Date()).toISOString();
    claims.push(claimStoredRun(store, runId, options.claimOwner, since));
  };
  try {
    // Finished cases are committed from a worker thread (see store/writer/).
    if (store !== null) writer = await store.cases.startWriter();
    if (plan.server.kind === 'embedded')
      server = await startReferenceServer({ host: '127.0.0.1', port: 0, model: plan.server.model });
    return await sendAndFinish(plan, options, { dataset, selected, store, writer, server, claim });
  } finally {
    await writer?.close();
    for (const c of claims) c.release();
    store?.close();
    await server?.close();
  }
}

/**
 * Pass 1 over the dataset: every row checked, and of the dataset only its description, the
 * second pass, and the selected cases' entries (in a fresh array the caller may empty).
 */
async function scanAndSelect(
  plan: BenchPlan,
  cacheDir: string | undefined,
): Promise<{
  dataset: Pick<ScannedBenchDataset, 'info' | 'questionSet' | 'questionTypes' | 'readCases'>;
  selected: CaseEntry[];
  /** The plan, without a --limit or --sample that selected every case of the dataset. */
  plan: BenchPlan;
  notes: MessageWords[];
}> {
  const { info, questionSet, questionTypes, readCases, entries } = await scanBenchDataset(
    datasetSourceOf(plan.dataset, cacheDir),
  );
  const selected = selectCases(entries, plan);
  const everything =
    plan.resume === null &&
    plan.workflow === null &&
    selected.length === entries.length &&
    selected.every((c, i) => c === entries[i]);
  const cut: MessageWords | null =
    plan.sample !== null
      ? words`${option('sample')} ${plan.sample.cases}`
      : plan.limit !== null
        ? words`${option('limit')} ${plan.limit}`
        : null;
  const dataset = { info, questionSet, questionTypes, readCases };
  if (!everything || cut === null) return { dataset, selected, plan, notes: [] };
  return {
    dataset,
    selected,
    // Every case in file order: the run is a full run, comparable with any other.
    plan: { ...plan, limit: null, sample: null },
    notes: [words`${cut} covers all ${entries.length} cases of the dataset: this is a full run`],
  };
}

/** What `executeBench` opened for the run: the dataset to read again, the store, the server. */
interface BenchParts {
  /** Checked, no case held: the cases are read again as they are sent. */
  readonly dataset: Pick<ScannedBenchDataset, 'info' | 'questionSet' | 'readCases'>;
  /** What planning keeps of the selected cases, in order; given up (emptied) once the cases are being read. */
  readonly selected: CaseEntry[];
  readonly store: Store | null;
  /** Commits the cases to `store`. */
  readonly writer: CaseWriter | null;
  readonly server: ReferenceServer | null;
  /** Claims a run for this process (see store/run-claim.ts); throws when another holds it. */
  readonly claim: (runId: string) => void;
}

/** The run as sending starts: its record, the client, and the queue of cases to send. */
interface StartedRun {
  readonly start: RunStart;
  readonly client: SystemOneClient;
  /** Every replica with its own client, the first `client` (null for a run on one server). */
  readonly replicas: readonly (Replica & { readonly client: SystemOneClient })[] | null;
  readonly casesTotal: number;
  readonly decisionsTotal: number;
  /** The cases' states for the Markdown trace of `--out` (null without `--out`). */
  readonly states: Map<string, string | object> | null;
  readonly toSend: CaseQueue;
  readonly reader: CaseReader;
  /** The run's id so far: the resumed run's, or null until its first cases are saved. */
  readonly runId: () => string | null;
  /** The run's id, the run created in the store (and claimed) when it has none yet. */
  readonly ensureRunId: () => string;
}

/** The cases sent: the runner's outcome and what was gathered from the finished cases. */
interface SentRun {
  readonly kind: 'sent';
  readonly outcome: RunOutcome;
  /** The summary, the report lists and the per-case numbers of the intervals. */
  readonly totals: RunAccumulator;
  /** A store-less run's cases, when something will read them. */
  readonly spool: CaseSpool | null;
  /** The replicas set aside while it was sent (kept with a stored run as they happen). */
  readonly setAside: readonly ReplicaSetAside[];
}

async function sendAndFinish(plan: BenchPlan, options: BenchWiring, parts: BenchParts): Promise<BenchOutcome> {
  const started = await startSending(plan, options, parts);
  const sent = await sendCases(plan, options, parts, started);
  if (sent.kind === 'stopped') return sent;
  const { outcome, spool } = sent;
  const dispose = () => spool?.dispose();
  const settlement = settleRun({
    stopped: outcome.stopped,
    finishedCases: outcome.finishedCases,
    answeredCases: outcome.answeredCases,
    resumed: started.start.id !== null,
    hasId: started.runId() !== null,
    hasStore: parts.store !== null,
    retryFailed: plan.resume?.retryFailed === true,
    timeoutMs: plan.timeoutMs,
  });
  if (settlement.kind === 'stopped') {
    dispose();
    recordStoppedRun(parts.store, started, sent, settlement);
    const why = options.redactHost
      ? mapWordText(settlement.words, (text) => hideHost(text, started.client.identity))
      : settlement.words;
    const incompleteRunId = settlement.record === 'incomplete' ? started.runId() : null;
    return { kind: 'stopped', incompleteRunId, ...said(why) };
  }
  const { reported, sample, keptIn } = finishRun(parts.store, started, sent, settlement);
  const { run, statistics, written, writeError, traces } = await writeOutputs(
    reported,
    sample,
    keptIn,
    started.states,
    options,
  );
  const decisionRows = traces?.jsonDecisions();
  return {
    kind: 'finished',
    run,
    statistics,
    interrupted: settlement.interrupted,
    saved: keptIn !== null,
    casesTotal: started.casesTotal,
    written,
    writeError,
    ...given({ decisionRows }),
    dispose: () => {
      traces?.dispose();
      dispose();
    },
  };
}

/** A run stopped early: deleted (a new run no decision model answered) or kept as incomplete. */
function recordStoppedRun(
  store: Store | null,
  started: StartedRun,
  sent: SentRun,
  settlement: Extract<Settlement, { kind: 'stopped' }>,
): void {
  const id = started.runId();
  if (id === null || store === null) return;
  if (settlement.record === 'delete') store.runs.delete(id);
  if (settlement.record === 'incomplete') {
    const { config, priorDurationMs } = started.start;
    store.runs.finish(id, {
      status: 'incomplete',
      durationMs: priorDurationMs + sent.outcome.durationMs,
      summary: settlement.sumFromStore
        ? summarizeRun(config, store.cases.iterate(id))
        : sent.totals.summarize(summarizeOptionsOf(config)),
    });
  }
}

/**
 * A finished run (complete, or interrupted): summed, finished in the store when it is kept
 * there, with its cases read back from the store or the temp file.
 */
function finishRun(
  store: Store | null,
  started: StartedRun,
  sent: SentRun,
  settlement: Extract<Settlement, { kind: 'finished' }>,
): { reported: ReportedRun; sample: RunTotals['sample'] | undefined; keptIn: Store | null } {
  const { config, createdAt, label, priorDurationMs } = started.start;
  const { interrupted } = settlement;
  const keptIn = settlement.keep ? store : null;
  const id = keptIn === null && store !== null ? unsavedIdOf(createdAt) : started.ensureRunId();
  const { summary, listings, sample } = settlement.sumFromStore
    ? {
        summary: summarizeRun(config, store!.cases.iterate(id), { interrupted }),
        listings: undefined,
        sample: undefined,
      }
    : sent.totals.finish(summarizeOptionsOf(config, { interrupted }));
  const durationMs = priorDurationMs + sent.outcome.durationMs;
  keptIn?.runs.finish(id, { status: summary.status, durationMs, summary });
  // A resumed run's notes of replicas set aside include those of its earlier sendings.
  const setAside =
    keptIn !== null && (sent.setAside.length > 0 || started.start.kept.size > 0)
      ? keptIn.runs.info(id)?.setAside
      : sent.setAside.length > 0
        ? sent.setAside
        : undefined;
  const savedCount = summary.requests.total;
  const cases: CaseSource =
    keptIn !== null
      ? keptIn.cases.source(id, savedCount)
      : (sent.spool ?? {
          length: savedCount,
          [Symbol.iterator]: () => {
            throw new Error('the cases of this run were not kept (pass readCases: true to executeBench)');
          },
        });
  const reported: ReportedRun = {
    id,
    createdAt,
    durationMs,
    label,
    fingerprint: fingerprintOf(config),
    config,
    summary,
    cases,
    ...given({ listings, setAside }),
  };
  return { reported, sample, keptIn };
}

/** Where the start line says the cases go; with `--redact` the host is left out. */
function startTarget(
  plan: BenchPlan,
  server: ReferenceServer | null,
  client: SystemOneClient,
  redactHost: boolean,
): string {
  if (server !== null)
    return `the built-in reference server (model ${plan.server.model}${redactHost ? '' : `, ${server.url}`})`;
  if (plan.server.kind === 'remote' && plan.replicaUrls.length > 0) {
    const urls = [plan.server.baseUrl, ...plan.replicaUrls];
    const names = urls.map((url, i) => (redactHost ? `replica ${i + 1}` : replicaNameOf(url)));
    return `${urls.length} replicas: ${names.join(', ')}`;
  }
  return redactHost ? formatEndpoint(client.identity, true) : shownUrl(client.endpoint);
}

/**
 * The start: the client, the run's record (new, or the resumed run's, claimed before anything
 * is sent), and the queue that reads the cases again as they are sent.
 */
async function startSending(plan: BenchPlan, options: BenchWiring, parts: BenchParts): Promise<StartedRun> {
  const { dataset, selected, store, server, claim } = parts;
  const clientAt = (baseUrl: string, connections = plan.parallel) =>
    createClientOrOptionError({
      baseUrl,
      ...(plan.server.kind === 'remote' && plan.server.apiKey !== undefined ? { apiKey: plan.server.apiKey } : {}),
      ...(plan.server.model !== null ? { model: plan.server.model } : {}),
      timeoutMs: plan.timeoutMs,
      retries: plan.retries,
      connections,
    });
  const firstUrl = plan.server.kind === 'remote' ? plan.server.baseUrl : server!.url;
  const client = clientAt(firstUrl);
  const replicas =
    plan.replicaUrls.length === 0
      ? null
      : [firstUrl, ...plan.replicaUrls].map((url, i) => {
          const parallel = plan.parallelByReplica?.[i] ?? plan.parallel;
          return { name: replicaNameOf(url), client: i === 0 ? client : clientAt(url, parallel), parallel };
        });
  const fresh = runConfigOf(plan, {
    toolVersion: options.toolVersion,
    dataset: { dataset: dataset.info, questionSet: dataset.questionSet },
    cases: selected,
    endpoint: server ? null : client.identity,
  });
  const start = startRun(plan, fresh, (options.clock?.() ?? new Date()).toISOString(), checkResumable);
  for (const note of start.notes) options.reporter?.onNote?.(spellForLibrary(note), note);
  let runId = start.id;
  if (replicas !== null) {
    const apiKey = plan.server.kind === 'remote' ? plan.server.apiKey : undefined;
    const urls = [firstUrl, ...plan.replicaUrls];
    try {
      await refuseMixedReplicas(
        urls.map((baseUrl) => ({ baseUrl, name: replicaNameOf(baseUrl) })),
        apiKey,
      );
    } catch (err) {
      await closeClients({ client, replicas });
      throw err;
    }
  }
  // Before anything is sent: a run another process is still sending is not sent twice.
  if (runId !== null) {
    try {
      claim(runId);
      // The run was read before it was claimed: another process that saved cases to it in
      // between (and has since stopped) would have them sent again.
      if (store !== null && plan.resume !== null) refuseChangedSince(store, runId, plan.resume.run);
    } catch (err) {
      await closeClients({ client, replicas });
      throw err;
    }
  }
  const casesTotal = selected.length;
  let decisionsTotal = 0;
  for (const e of selected) decisionsTotal += e.questions;
  // The cases are read again as they are sent, a few times --parallel at a time, and each
  // is let go once sent: what the run needs afterwards is its ids (config.caseIds) and, for
  // the Markdown trace of `--out`, the states (of kept cases too).
  const states = options.outDir === undefined ? null : new Map<string, string | object>();
  const { queue: toSend, reader } = caseQueueOf(dataset, selected, start.kept, states, plan.parallel);
  selected.length = 0;
  options.reporter?.onStart?.({
    toSend: toSend.length,
    total: casesTotal,
    datasetName: dataset.info.synthetic ? 'synthetic sample' : dataset.info.id,
    target: startTarget(plan, server, client, options.redactHost === true),
    resumingRunId: runId,
    filtered: isFiltered(start.config),
  });
  const ensureRunId = (): string => {
    if (runId === null) {
      const { config, label, createdAt } = start;
      runId = store ? store.runs.create({ config, label, createdAt }).id : unsavedIdOf(createdAt);
      claim(runId);
    }
    return runId;
  };
  return {
    start,
    client,
    replicas,
    casesTotal,
    decisionsTotal,
    states,
    toSend,
    reader,
    runId: () => runId,
    ensureRunId,
  };
}

/**
 * The send: every queued case through the runner, each finished batch checkpointed (to the
 * store, or a temp file) before it is counted. A store that refuses a write stops the run
 * (interrupted, resumable).
 */
async function sendCases(
  plan: BenchPlan,
  options: BenchWiring,
  parts: BenchParts,
  started: StartedRun,
): Promise<SentRun | Extract<BenchOutcome, { kind: 'stopped' }>> {
  const { store, writer } = parts;
  const { start, client, reader, states, runId, ensureRunId } = started;
  const { config, kept, priorDurationMs } = start;
  const sendStarted = options.now();
  // The run's numbers are gathered as cases finish; no case is kept in memory. Cases go
  // to the store, or (without one, when something will read them) to a temp file.
  const positionOf = new Map<string, number>(config.caseIds.map((id, i) => [id, i] as const));
  // The summary, the report lists and the compact per-case numbers the intervals need (a few bytes a decision).
  const totals = new RunAccumulator(summarizeOptionsOf(config).calibration, {
    cases: started.casesTotal,
    decisions: started.decisionsTotal,
  });
  // A run that applies a calibration map counts its answers recalibrated (they are stored raw).
  const scored =
    config.calibration === undefined
      ? (result: CaseResult) => result
      : (result: CaseResult) => recalibrateCase(result, config.calibration!);
  const count = (result: CaseResult) => totals.add(scored(result), positionOf.get(result.caseId) ?? positionOf.size);
  // A resumed run's kept cases are counted from the store, one at a time.
  const resumedId = runId();
  if (kept.size > 0 && store !== null && resumedId !== null)
    for (const r of store.cases.iterate(resumedId)) if (kept.has(r.caseId)) count(r);
  const needCases = options.readCases === true || options.outDir !== undefined;
  const spool = store === null && needCases ? new CaseSpool(config.caseIds.length) : null;
  const setAside: ReplicaSetAside[] = [];
  let outcome: RunOutcome;
  try {
    outcome = await runBenchmark({
      cases: started.toSend,
      client,
      parallel: plan.parallel,
      ...(started.replicas === null ? {} : { replicas: started.replicas }),
      failureOf,
      isRunStopping,
      isCaseSpecificRejection,
      elapsedMsOf,
      signal: options.signal,
      now: options.now,
      keepResults: false,
      // With a store, one transaction per 50 ms of answers rather than per event-loop turn:
      // at high --parallel a turn holds one or two cases, and each commit rewrites the same
      // index pages. A case is counted only once its batch is committed (by the writer
      // thread); the next batch gathers meanwhile.
      ...(store === null ? {} : { groupCommitMs: GROUP_COMMIT_MS }),
      checkpoint: (results) => {
        const id = ensureRunId();
        if (spool !== null) for (const r of results) spool.add(r, positionOf.get(r.caseId)!);
        // The running duration goes with each batch: a killed run keeps one.
        return writer?.save(id, results, { durationMs: priorDurationMs + (options.now() - sendStarted) });
      },
      onEvent: (e) => {
        if (e.type === 'set-aside') {
          noteSetAside(options, e, started.replicas ?? []);
          const at = (options.clock?.() ?? new Date()).toISOString();
          const note = { replica: e.replica, reason: e.message, at, answeredCases: e.answeredCases };
          setAside.push(note);
          store?.runs.noteSetAside(ensureRunId(), note);
        }
        if (e.type !== 'case') return;
        count(e.result);
        options.reporter?.onCase?.(e.progress);
      },
    });
  } catch (err) {
    reader.close();
    spool?.dispose();
    // What was saved before stays saved (the store refused a write, or the dataset changed
    // while it was read again): the run is interrupted and can be resumed.
    const id = runId();
    if (id !== null) markInterrupted(store, id);
    if (!(err instanceof StoreWriteError)) throw err;
    await closeClients(started);
    const why = words`${err}; the run is interrupted${id === null ? '' : `: resume with: ${benchResumeCommand(id, { store: err.path })}`}`;
    return { kind: 'stopped', incompleteRunId: null, ...said(why) };
  }
  options.reporter?.onFinish?.();
  await closeClients(started);
  // Kept cases (of a resumed run) not reached before Ctrl+C still get their states in the trace.
  if (states !== null && kept.size > 0 && outcome.stopped?.reason === 'aborted') await takeStates(reader, states);
  reader.close();
  return { kind: 'sent', outcome, totals, spool, setAside };
}

/**
 * The outputs: the run's statistics under the chosen conventions (saved beside a kept run's
 * summary) and the `--out` files; a file that cannot be written is reported, the run stays
 * finished. With `--out`, the three reports' per-case parts are rendered in the same pass
 * (one read of the run's cases for everything) and kept (`traces`, disposed by the caller)
 * for the JSON document `--json` prints.
 */
async function writeOutputs(
  reported: ReportedRun,
  sample: RunTotals['sample'] | undefined,
  keptIn: Store | null,
  states: ReadonlyMap<string, string | object> | null,
  options: BenchWiring,
): Promise<
  Pick<Extract<BenchOutcome, { kind: 'finished' }>, 'run' | 'statistics' | 'written' | 'writeError'> & {
    traces: ReportTraces | null;
  }
> {
  const traces = options.outDir === undefined ? null : new ReportTraces(['json', 'markdown', 'html'], states!);
  try {
    return { ...(await analyzeAndWrite(reported, sample, keptIn, states, traces, options)), traces };
  } catch (err) {
    traces?.dispose();
    throw err;
  }
}

async function analyzeAndWrite(
  reported: ReportedRun,
  sample: RunTotals['sample'] | undefined,
  keptIn: Store | null,
  states: ReadonlyMap<string, string | object> | null,
  traces: ReportTraces | null,
  options: BenchWiring,
): Promise<Pick<Extract<BenchOutcome, { kind: 'finished' }>, 'run' | 'statistics' | 'written' | 'writeError'>> {
  const { run, statistics } = analyzeRun(reported, options.statistics?.choice ?? {}, {
    intervals: options.statistics?.intervals ?? true,
    ...given({ sample }),
    ...(traces === null ? {} : { listings: true, visit: traces.visit }),
  });
  // Kept beside the summary, so `runs show` gives the intervals without reading every decision.
  if (keptIn !== null && statistics.intervals !== null && !statistics.recomputed)
    keepBesideSummary(() => keptIn.runs.saveStatistics(reported.id, statistics));
  // And what its report lists, so a report or `decidekit view` of it reads no case for them.
  const { listings } = run;
  if (keptIn !== null && listings !== undefined)
    keepBesideSummary(() => keptIn.runs.saveListings(reported.id, listings));
  let written: string[] = [];
  let writeError: string | null = null;
  try {
    // The states (for the Markdown trace) were kept only for `--out`.
    if (options.outDir !== undefined)
      written = await writeBenchReports(run, options.outDir, states!, traces!, {
        ...options,
        statistics,
      });
  } catch (err) {
    writeError = err instanceof Error ? err.message : String(err);
  }
  return { run, statistics, written, writeError };
}

/**
 * The queue the runner drains: the selected cases not kept from a resumed run, read again
 * from the dataset with room for a few times `parallel` (so about that many cases are in
 * memory). With `states` (for `--out`), kept cases are read too, for their states only.
 */
function caseQueueOf(
  dataset: Pick<ScannedBenchDataset, 'readCases'>,
  selected: readonly CaseEntry[],
  kept: ReadonlySet<string>,
  states: Map<string, string | object> | null,
  parallel: number,
): { queue: CaseQueue; reader: CaseReader } {
  const toSend = kept.size === 0 ? selected : selected.filter((c) => !kept.has(c.id));
  // Without `--out` a state is only sent: one already written as a request writes it is not parsed.
  const reader = dataset.readCases(states === null ? toSend : selected, {
    bufferCases: Math.max(64, parallel * 4),
    stateAsText: states === null,
  });
  const take =
    states === null
      ? () => reader.take()
      : async () => {
          for (;;) {
            const c = await reader.take();
            if (c === undefined) return c;
            states.set(c.id, c.state);
            if (!kept.has(c.id)) return c;
          }
        };
  return {
    queue: { length: toSend.length, decisions: toSend.reduce((n, c) => n + c.questions, 0), take },
    reader,
  };
}

async function takeStates(reader: CaseReader, states: Map<string, string | object>): Promise<void> {
  try {
    for (let c = await reader.take(); c !== undefined; c = await reader.take()) states.set(c.id, c.state);
  } catch {
    // The dataset changed meanwhile: those cases' traces go without a state preview.
  }
}

function markInterrupted(store: Store | null, runId: string): void {
  try {
    store?.runs.markInterrupted(runId);
  } catch {
    // The store still refuses writes; the run stays 'running' and resumes all the same.
  }
}

/**
 * Writes `<run>.json`, `<run>.md` and `<run>.html` into `dir`, each as a stream of pieces
 * (their per-case parts rendered in the pass that analysed the run, `traces`); a failure
 * names the file and the reason.
 */
async function writeBenchReports(
  run: ReportedRun,
  dir: string,
  states: ReadonlyMap<string, string | object>,
  traces: ReportTraces,
  options: { readonly redactHost?: boolean; readonly statistics?: RunStatistics } = {},
): Promise<string[]> {
  const settings = { statistics: options.statistics ?? null, redactHost: options.redactHost === true, states };
  const files = [
    { path: join(dir, `${run.id}.json`), chunks: () => traces.chunks(run, 'json', settings) },
    { path: join(dir, `${run.id}.md`), chunks: () => traces.chunks(run, 'markdown', settings) },
    { path: join(dir, `${run.id}.html`), chunks: () => traces.chunks(run, 'html', settings) },
  ];
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new DecidekitError(
      'write_failed',
      `cannot write the reports into ${dir} (${fileErrorWords(err, 'write failed')})`,
      {
        cause: err,
      },
    );
  }
  // A file that cannot be written is named: `cannot write the report: DIR/RUN.md (EACCES)`.
  for (const f of files) await writeTextPieces(f.path, f.chunks(), 'the report');
  return files.map((f) => f.path);
}

/** Closes the client of every replica (of the one server). */
async function closeClients(started: Pick<StartedRun, 'client' | 'replicas'>): Promise<void> {
  await Promise.all((started.replicas ?? [started]).map((r) => r.client.close()));
}

/** A replica set aside: said on the reporter's notes as it happens. */
function noteSetAside(
  options: BenchWiring,
  e: { readonly replica: string; readonly message: string },
  replicas: readonly Replica[],
): void {
  // Redacted, a replica is named by its place in the --base-url order, as the reports do.
  const at = replicas.findIndex((r) => r.name === e.replica);
  const name = options.redactHost === true ? `replica ${at + 1}` : e.replica;
  const why = options.redactHost === true ? e.message.split(e.replica).join(name) : e.message;
  const note = words`${name} set aside: ${why}; its cases go to the other replicas`;
  options.reporter?.onNote?.(spellForLibrary(note), note);
}

/** A malformed base URL is an option error (exit 2), not a failed run. */
function createClientOrOptionError(options: Parameters<typeof createSystemOneClient>[0]) {
  try {
    return createSystemOneClient(options);
  } catch (err) {
    if (err instanceof InvalidBaseUrlError) throw new OptionError('baseUrl', words`${option('baseUrl')}: ${err}`);
    throw err;
  }
}

/** The id of a run that is not stored (no store, or nothing to keep): dated like stored ones. */
function unsavedIdOf(createdAt: string): string {
  return `unsaved-${createdAt.replace(/[-:.TZ]/g, '').slice(0, 14)}`;
}

/** Throws when `runId`'s saved cases are no longer those `read` found (saved to meanwhile). */
function refuseChangedSince(store: Store, runId: string, read: ResumableRun): void {
  const { answered, failed } = store.cases.byOutcome(runId);
  if (answered.size !== read.answered.size || failed.size !== read.failed.size)
    throw new DecidekitError(
      'run_busy',
      `run ${runId} got new cases from another decidekit process while this one was starting: run the command again (nothing was sent)`,
    );
}

/**
 * Saves what is kept beside a finished run's summary (its statistics, its listings); a store
 * that refuses the write (disk full) only costs a later read a recomputation from the
 * decisions, so the finished run is not failed for it.
 */
function keepBesideSummary(save: () => void): void {
  try {
    save();
  } catch (err) {
    if (!(err instanceof StoreWriteError)) throw err;
  }
}

/** The reports of a resumed run (its id known before the work), checked against the store and dataset. */
function resumedReports(plan: BenchPlan): KnownReports | undefined {
  if (plan.resume === null) return undefined;
  const inputs: ReadFile[] = [];
  if (plan.storePath !== null) inputs.push({ named: option('storePath'), path: plan.storePath });
  if (plan.dataset.kind === 'path') inputs.push({ named: option('dataset'), path: plan.dataset.path });
  return { id: plan.resume.run.id, extensions: ['json', 'md', 'html'], inputs };
}

/** The plan for a request, reading the run to resume (once, before anything starts). */
export async function planBenchFromStore(request: BenchRequest): Promise<BenchPlan> {
  if (request.resume === undefined || request.storePath === null) {
    // The request's option checks first, before a map is read.
    const { calibrationPath, ...checked } = request;
    planBench(checked, null);
    return planBench(request, null, await calibrationOfRequest(calibrationPath, null));
  }
  // An audit or probe id is named as such (not "unknown run").
  const askedBy = { command: words`bench ${option('resume')}`, storeArg: request.storePath };
  const stored = await readRunToResume(request.storePath, request.resume, askedBy);
  return planBench(request, stored, await calibrationOfRequest(request.calibrationPath, stored));
}

const FIT_HINT = words`fit one on a stored benchmark run of this dataset (a bench without ${option('calibrationPath')}, then decidekit calibrate on that run)`;

/**
 * The map a bench applies, read and checked before anything starts: the one given, or, for a
 * resumed run that applied one, its own file again. The resume check then refuses a map
 * whose hash differs from the run's, naming both; a file that is gone or no longer reads is
 * replaced by the copy stored with the run (the same groups and parameters), with a note.
 */
async function calibrationOfRequest(
  path: string | undefined,
  stored: ResumableRun | null,
): Promise<{ readonly map: RunCalibration; readonly notes: MessageWords[] } | null> {
  if (path !== undefined) return { map: await loadRunCalibration(path, FIT_HINT), notes: [] };
  const own = stored?.config.calibration;
  if (own === undefined) return null;
  try {
    const loaded = await loadCalibrationMap(own.path);
    if (loaded.sha256 === own.sha256) return { map: own, notes: [] };
    return { map: { ...own, sha256: loaded.sha256 }, notes: [] };
  } catch (err) {
    if (!(err instanceof DecidekitError)) throw err;
    const why = err.code === 'file_unreadable' ? 'cannot be read' : 'is no longer a calibration map';
    const note = words`the calibration map ${own.path} this run applies ${why}: resuming with the copy stored with the run (sha256 ${own.sha256.slice(0, 12)})`;
    return { map: own, notes: [note] };
  }
}

/** The questions of the selected cases' workflows, with their types. */
function questionsSent(types: Readonly<Record<string, string>>, selected: readonly CaseEntry[]): RunQuestion[] {
  const workflows = [...new Set(selected.map((e) => e.workflow))];
  return Object.entries(types)
    .filter(([key]) => workflows.some((w) => key.startsWith(`${w}/`)))
    .map(([key, type]) => ({ key, type }));
}

/** A stored run to resume (its record and saved case ids, not its cases), read before anything starts. */
export async function readRunToResume(storePath: string, prefix: string, askedBy?: AskedBy): Promise<ResumableRun> {
  const { openStore } = await import('../../store/open-store.js');
  const store = openStore(storePath, { mustExist: true, readOnly: true });
  try {
    const id = store.resolveId(prefix, 'run', askedBy);
    return { ...store.runs.info(id)!, ...store.cases.byOutcome(id) };
  } finally {
    store.close();
  }
}
