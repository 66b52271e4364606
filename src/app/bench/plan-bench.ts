/**
 * Planning a benchmark, purely: what the user asked plus (on resume) the stored run become
 * one plan — dataset, filters, server, model, sending settings — and, once the dataset is
 * loaded, the run's configuration and what a resumed run keeps. No IO here: every rule is
 * tested with literal configurations.
 */
import { given } from '../../core/given.js';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import type { BenchRun, RunConfig } from '../../core/bench/run.js';
import type { RunCalibration } from '../../core/calibration-map.js';
import type { EndpointIdentity, SentCredentials } from '../../core/endpoint-identity.js';
import { conventionsOfChoice } from '../../core/bench/run-conventions.js';
import { conventionsText, type ConventionChoice } from '../../core/stats/conventions.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, words, type MessageWords } from '../../core/message-words.js';
import { SAMPLE_ID, TYPED_DECISIONS_ID } from '../../datasets/typed-decisions/provenance.js';
import { stratifiedSample } from '../../core/stratified-sample.js';
import { refuseUnsafeHeaderValue } from '../../core/header-value.js';
import { baseUrlOf, redactUrl, shownUrl, withoutCredentials } from '../../protocol/wire/endpoint.js';
import { benchResumeCommand, credentialsAgainFlags } from '../../core/command-hints.js';
import { DEFAULT_EMBEDDED_MODEL, EMBEDDED_IDENTITY, refuseUnusableBaseUrl, type ServerPlan } from '../server-plan.js';
import type { DatasetChoice } from '../dataset-choice.js';

/** What a user asks of a benchmark (the CLI's options, or a library caller's). */
export interface BenchRequest {
  /** Absent: start the built-in reference server in-process. */
  readonly baseUrl?: string;
  /**
   * More servers of the same model beside `baseUrl` (replicas): the run's cases go to
   * whichever has room, `parallel` requests in flight to each.
   */
  readonly replicaUrls?: readonly string[];
  readonly model?: string;
  readonly apiKey?: string;
  readonly dataset?: DatasetChoice;
  /** Requests in flight (to each replica). Default 1. */
  readonly parallel?: number;
  /**
   * Requests in flight to each server, one number a server in the order `baseUrl`, then
   * `replicaUrls` (instead of `parallel`, the same for all).
   */
  readonly parallelByReplica?: readonly number[];
  /** Per-request timeout. Default 60. */
  readonly timeoutSec?: number;
  /** Retries of 429/502/503/504. Default 2. */
  readonly retries?: number;
  readonly limit?: number;
  readonly workflow?: string;
  /** A seeded sample of this many cases, stratified by workflow. */
  readonly sample?: { readonly cases: number; readonly seed: number };
  readonly pricePerMtokUsd?: number;
  readonly label?: string;
  /** A stored run's id (or prefix) to continue. */
  readonly resume?: string;
  /** With `resume`: re-send failed cases too. */
  readonly retryFailed?: boolean;
  /** The run store; null keeps nothing. */
  readonly storePath: string | null;
  /** ECE convention and bootstrap seed recorded with a new run (a resumed run keeps its own). */
  readonly conventions?: ConventionChoice;
  /**
   * A calibration map fitted on a stored benchmark run (`calibrate RUN --out`), applied to
   * every answer before scoring; the answers are stored raw. A resumed run re-applies its own.
   */
  readonly calibrationPath?: string;
}

export const DEFAULT_PARALLEL = 1;
export const DEFAULT_TIMEOUT_SEC = 60;
export const DEFAULT_RETRIES = 2;

export interface BenchPlan {
  readonly dataset: DatasetChoice;
  readonly workflow: string | null;
  readonly limit: number | null;
  readonly sample: { readonly cases: number; readonly seed: number } | null;
  readonly server: ServerPlan;
  /** The base URLs of the other replicas beside the server's (empty for a run on one server). */
  readonly replicaUrls: readonly string[];
  /** Requests in flight (to each replica, unless `parallelByReplica`: then the first's). */
  readonly parallel: number;
  /** Requests in flight to each replica in order (the server's first), or null: `parallel` to each. */
  readonly parallelByReplica: readonly number[] | null;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly pricePerMtokUsd: number | null;
  readonly label: string | null;
  readonly storePath: string | null;
  /** The conventions a new run records (`conventionsText`). */
  readonly conventions: string;
  /** The run being continued, read before anything started. */
  readonly resume: { readonly run: ResumableRun; readonly retryFailed: boolean } | null;
  /** The calibration map applied before scoring (read and checked by `planBenchFromStore`); absent for none. */
  readonly calibration?: RunCalibration;
  /** What planning tells the user (a resumed run's map applied from its stored copy). */
  readonly notes?: readonly MessageWords[];
}

/**
 * The plan for a request. `stored` is the run named by `request.resume` (null, the default,
 * otherwise; `planBenchFromStore` reads it):
 * `--resume RUN` alone continues a run as it was started — what the request leaves out
 * (dataset, filters, server, model) comes from the stored run.
 */
export function planBench(
  request: BenchRequest,
  stored: ResumableRun | null = null,
  calibration: { readonly map: RunCalibration; readonly notes: readonly MessageWords[] } | null = null,
): BenchPlan {
  if (request.retryFailed && request.resume === undefined)
    throw new OptionError('retryFailed', words`${option('retryFailed')} goes with ${option('resume', 'RUN')}`);
  if (request.resume !== undefined && request.storePath === null)
    throw new OptionError('resume', words`${option('resume')} needs the run store; drop ${option('storePath: null')}`);
  if (request.limit !== undefined && request.sample !== undefined)
    throw new OptionError(
      'limit',
      words`${option('limit')} takes the first cases and ${option('sample')} a seeded spread of them: give one of the two`,
    );
  if (request.apiKey !== undefined) refuseUnsafeHeaderValue('apiKey', request.apiKey);
  refuseUnusableBaseUrl(request.baseUrl);
  if ((request.resume === undefined) !== (stored === null))
    throw new Error('planBench: pass the stored run exactly when resuming');
  if (request.calibrationPath !== undefined && calibration === null)
    throw new Error('planBench: a calibration map is read by planBenchFromStore (pass the map it read)');
  const resumed = stored?.config ?? null;
  if (stored !== null) refuseResumeWithoutCredentials(stored, request);
  // A run on replicas resumed without base URLs is sent to the same replicas again; base
  // URLs given with the resume replace them all (the first must be the run's own server).
  const replicaUrls =
    request.baseUrl === undefined && resumed?.replicas !== undefined
      ? resumed.replicas.slice(1)
      : replicaUrlsOf(request);
  const baseUrl =
    request.baseUrl ?? (resumed && resumed.embeddedServer === null ? baseUrlOf(resumed.endpoint) : undefined);
  const model = request.model ?? (resumed ? (resumed.embeddedServer?.model ?? resumed.model ?? undefined) : undefined);
  const server: ServerPlan =
    baseUrl === undefined
      ? { kind: 'embedded', model: model ?? DEFAULT_EMBEDDED_MODEL }
      : {
          kind: 'remote',
          baseUrl,
          model: model ?? null,
          ...given({ apiKey: request.apiKey }),
        };
  const parallelByReplica = parallelByReplicaOf(request, baseUrl === undefined ? 0 : 1 + replicaUrls.length, resumed);
  return {
    dataset: request.dataset ?? (resumed ? datasetChoiceOf(resumed) : { kind: 'sample' }),
    workflow: request.workflow ?? resumed?.filters.workflow ?? null,
    limit: request.limit ?? resumed?.filters.limit ?? null,
    sample: request.sample ?? resumed?.filters.sample ?? null,
    server,
    replicaUrls,
    // A resumed run sends as it did unless told otherwise.
    parallel: parallelByReplica?.[0] ?? request.parallel ?? resumed?.parallel ?? DEFAULT_PARALLEL,
    parallelByReplica,
    timeoutMs:
      request.timeoutSec !== undefined ? request.timeoutSec * 1000 : (resumed?.timeoutMs ?? DEFAULT_TIMEOUT_SEC * 1000),
    retries: request.retries ?? resumed?.retries ?? DEFAULT_RETRIES,
    pricePerMtokUsd: request.pricePerMtokUsd ?? null,
    label: request.label ?? null,
    storePath: request.storePath,
    conventions: conventionsText(conventionsOfChoice(request.conventions ?? {})),
    resume: stored === null ? null : { run: stored, retryFailed: request.retryFailed === true },
    ...(calibration === null ? {} : { calibration: calibration.map, notes: calibration.notes }),
  };
}

/** How a replica is named in the run's records and notes: its base URL without credentials or a trailing slash. */
export function replicaNameOf(baseUrl: string): string {
  return redactUrl(baseUrl).replace(/\/+$/, '');
}

/**
 * Each replica's own requests in flight, when given one number a server (checked against
 * the servers' count); a resumed run on the same replicas keeps its own unless `parallel`
 * is given. Null: `parallel` to each.
 */
function parallelByReplicaOf(
  request: BenchRequest,
  servers: number,
  resumed: RunConfig | null,
): readonly number[] | null {
  const each = request.parallelByReplica;
  if (each === undefined || each.length === 0) {
    const kept = resumed?.parallelByReplica;
    return request.parallel === undefined && kept !== undefined && kept.length === servers ? kept : null;
  }
  if (request.parallel !== undefined)
    throw new OptionError('parallel', words`give ${option('parallel')} or ${option('parallelByReplica')}, not both`);
  for (const n of each)
    if (!Number.isInteger(n) || n < 1)
      throw new OptionError('parallelByReplica', words`${option('parallelByReplica')} ${n} is not a whole number >= 1`);
  if (each.length === servers) return each;
  const given = `${each.length} time${each.length === 1 ? '' : 's'}`;
  if (servers === 0)
    throw new OptionError(
      'parallelByReplica',
      words`${option('parallelByReplica')} is given ${given} for the embedded reference server: give it once`,
    );
  throw new OptionError(
    'parallelByReplica',
    words`${option('parallelByReplica')} is given ${given} for ${servers} ${option('baseUrl')} server${servers === 1 ? '' : 's'}: give it once (for each of them) or once per ${option('baseUrl')}, in their order`,
  );
}

/** The replicas beside the base URL, each usable and none given twice. */
function replicaUrlsOf(request: BenchRequest): readonly string[] {
  const more = request.replicaUrls ?? [];
  if (more.length === 0) return [];
  if (request.baseUrl === undefined)
    throw new OptionError('baseUrl', words`replicas need ${option('baseUrl')} for the first of them`);
  const seen = new Set([replicaNameOf(request.baseUrl)]);
  for (const url of more) {
    refuseUnusableBaseUrl(url);
    const shown = replicaNameOf(url);
    if (seen.has(shown))
      throw new OptionError(
        'baseUrl',
        words`${option('baseUrl')} ${shownUrl(url)} is given twice; give each replica once`,
      );
    seen.add(shown);
  }
  return more;
}

/** What a server is sent as `Authorization`: a key given wins over the base URL's user and password. */
function credentialsSent(server: { readonly baseUrl: string; readonly apiKey?: string }): SentCredentials | undefined {
  if (server.apiKey !== undefined && server.apiKey !== '') return 'key';
  return withoutCredentials(server.baseUrl).basicAuthorization !== null ? 'user and password' : undefined;
}

/**
 * A resume of a run that sent credentials, without them: keys and passwords are never
 * stored, so the run would go on asking without them. The message gives the command again
 * with a placeholder for what is missing.
 */
function refuseResumeWithoutCredentials(stored: ResumableRun, request: BenchRequest): void {
  const sent = stored.config.credentials;
  if (sent === undefined) return;
  const now = credentialsSent({
    baseUrl: request.baseUrl ?? '',
    ...given({ apiKey: request.apiKey }),
  });
  if (now === 'key' || now === sent) return;
  const again = `${benchResumeCommand(stored.id, { store: request.storePath, retryFailed: request.retryFailed === true })}${credentialsAgainFlags(sent, baseUrlOf(stored.config.endpoint))}`;
  throw new OptionError(
    sent === 'key' ? 'apiKey' : 'baseUrl',
    sent === 'key'
      ? words`cannot resume run ${stored.id}: it sent a key (${option('apiKey')}), and keys are never stored: give it again: ${again}`
      : words`cannot resume run ${stored.id}: it sent the user and password of its base URL, and they are never stored: give them again: ${again}`,
  );
}

/**
 * The cases a plan sends: the workflow filter, then the first `limit` (the head of the file)
 * or a seeded `sample` stratified by workflow (a spread over the whole file).
 */
export function selectCases<C extends Pick<TypedDecisionsCase, 'workflow'>>(
  cases: readonly C[],
  plan: Pick<BenchPlan, 'workflow' | 'limit'> & { readonly sample?: BenchPlan['sample'] },
): C[] {
  let selected = [...cases];
  if (plan.workflow !== null) {
    const known = [...new Set(cases.map((c) => c.workflow))];
    if (!known.includes(plan.workflow))
      throw new OptionError(
        'workflow',
        words`${option('workflow')} ${plan.workflow} is not in the dataset (workflows: ${known.join(', ')})`,
      );
    selected = selected.filter((c) => c.workflow === plan.workflow);
  }
  if (plan.sample) return stratifiedSample(selected, plan.sample.cases, plan.sample.seed, (c) => c.workflow);
  return plan.limit === null ? selected : selected.slice(0, plan.limit);
}

/** The configuration a fresh run of this plan records. */
export function runConfigOf(
  plan: BenchPlan,
  input: {
    readonly toolVersion: string;
    readonly dataset: Pick<RunConfig, 'dataset' | 'questionSet'>;
    /** The selected cases (or what planning keeps of them: their ids), in order. */
    readonly cases: readonly Pick<TypedDecisionsCase, 'id'>[];
    /** The client's endpoint identity (remote servers only). */
    readonly endpoint: EndpointIdentity | null;
  },
): RunConfig {
  const embedded = plan.server.kind === 'embedded';
  return {
    toolVersion: input.toolVersion,
    dataset: input.dataset.dataset,
    caseIds: input.cases.map((c) => c.id),
    questionSet: input.dataset.questionSet,
    model: plan.server.model,
    endpoint: embedded ? EMBEDDED_IDENTITY : input.endpoint!,
    embeddedServer: plan.server.kind === 'embedded' ? { model: plan.server.model } : null,
    ...given({ credentials: plan.server.kind === 'remote' ? credentialsSent(plan.server) : undefined }),
    ...(plan.server.kind === 'remote' && plan.replicaUrls.length > 0
      ? { replicas: [plan.server.baseUrl, ...plan.replicaUrls].map(replicaNameOf) }
      : {}),
    parallel: plan.parallel,
    ...(plan.parallelByReplica === null ? {} : { parallelByReplica: plan.parallelByReplica }),
    timeoutMs: plan.timeoutMs,
    retries: plan.retries,
    filters: { limit: plan.limit, workflow: plan.workflow, ...(plan.sample === null ? {} : { sample: plan.sample }) },
    pricePerMtokUsd: plan.pricePerMtokUsd,
    conventions: plan.conventions,
    ...given({ calibration: plan.calibration }),
  };
}

/**
 * A stored run as resuming needs it: its record without its cases, and the ids of the cases
 * it saved by outcome (a large run's cases are not loaded to resume it).
 */
export interface ResumableRun extends Omit<BenchRun, 'cases'> {
  /** Saved cases whose request was answered. */
  readonly answered: ReadonlySet<string>;
  /** Saved cases whose request failed. */
  readonly failed: ReadonlySet<string>;
}

/** Where a run starts: a new run, or a stored one with the cases it keeps. */
export interface RunStart {
  readonly id: string | null;
  readonly createdAt: string;
  readonly label: string | null;
  readonly config: RunConfig;
  /** Ids of the saved cases that are not sent again. */
  readonly kept: ReadonlySet<string>;
  /** Duration of the earlier sessions of a resumed run. */
  readonly priorDurationMs: number;
  /** Notes for the user (a price that was kept, failed cases that will not be sent again). */
  readonly notes: readonly MessageWords[];
}

/**
 * A fresh run, or the stored run continued: refused (naming every difference) when the
 * cases would not be comparable. The stored configuration stays the run's record (its price
 * included), so the stored summary always agrees with one recomputed from the stored cases;
 * only how this session sends (parallel, timeout, retries) is new.
 */
export function startRun(plan: BenchPlan, config: RunConfig, createdAt: string, check: ResumeChecker): RunStart {
  if (plan.resume === null)
    return { id: null, createdAt, label: plan.label, config, kept: new Set(), priorDurationMs: 0, notes: [] };
  const { run, retryFailed } = plan.resume;
  const verdict = check(run.config, config);
  if (!verdict.ok)
    throw new DecidekitError('not_resumable', `cannot resume run ${run.id}: ${verdict.reasons.join('; ')}`);
  const kept = new Set(run.answered);
  if (!retryFailed) for (const id of run.failed) kept.add(id);
  const price = plan.pricePerMtokUsd;
  const notes: MessageWords[] = [];
  if (price !== null && price !== run.config.pricePerMtokUsd)
    notes.push(
      words`keeping the run's price (${run.config.pricePerMtokUsd ?? 'none'} per Mtok); ${option('pricePerMtokUsd')} ${price} applies to new runs`,
    );
  const failedKept = retryFailed ? 0 : run.failed.size;
  if (failedKept > 0)
    notes.push(
      words`${failedKept} failed case${failedKept === 1 ? ' is' : 's are'} kept as ${failedKept === 1 ? 'it is' : 'they are'}; add ${option('retryFailed')} to send ${failedKept === 1 ? 'it' : 'them'} again`,
    );
  if (run.config.caseIds.every((id) => kept.has(id)))
    notes.push(
      words`run ${run.id} already has a result for each of its ${run.config.caseIds.length} cases: nothing to send; below is the stored run's report`,
    );
  // How this session sends is recorded as sent: one parallel number given to a resume of a run
  // whose replicas each had their own goes to each of them, and the record says so.
  const { parallelByReplica: _stored, ...stored } = run.config;
  return {
    id: run.id,
    createdAt: run.createdAt,
    label: plan.label ?? run.label,
    config: {
      ...stored,
      parallel: config.parallel,
      ...given({ parallelByReplica: config.parallelByReplica }),
      timeoutMs: config.timeoutMs,
      retries: config.retries,
    },
    kept,
    priorDurationMs: run.durationMs ?? 0,
    notes,
  };
}

/** The store's resume rule (passed in so planning stays free of the store). */
export type ResumeChecker = (
  stored: RunConfig,
  now: RunConfig,
) => { readonly ok: true } | { readonly ok: false; readonly reasons: readonly string[] };

/** The `--dataset` choice that finds a stored run's dataset again. */
export function datasetChoiceOf(config: RunConfig): DatasetChoice {
  if (config.dataset.id === SAMPLE_ID) return { kind: 'sample' };
  if (config.dataset.id === TYPED_DECISIONS_ID) return { kind: 'typed-decisions' };
  if (config.dataset.file) return { kind: 'path', path: config.dataset.file.path };
  throw new OptionError(
    'dataset',
    words`run's dataset ${config.dataset.id} was given by path: pass ${option('dataset', 'PATH')} again to resume it`,
  );
}
