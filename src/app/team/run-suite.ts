/**
 * Running a suite: every server checked to answer before any work, then every model on every
 * dataset as one ordinary bench run in the store (runs against different servers at once,
 * runs against the same server one after another), then each dataset's leaderboard and the
 * paired comparison of every model against the baseline, gated as `runs gate` gates.
 *
 * A job's run goes through one function, `BenchPlanRunner`: here it sends the plan in this
 * process; a runner that enqueues the plan for workers can take its place.
 */
import { DecidekitError, InvalidInputError, type InputProblem } from '../../core/errors.js';
import type { ConventionChoice } from '../../core/stats/conventions.js';
import { suiteJobsOf, baselineOf, type SuiteJob, type SuiteModel } from '../../core/team/suite.js';
import type { SuiteJobResult, SuiteJobRun, SuiteOutcome } from '../../core/team/suite-outcome.js';
import { fieldName } from '../../core/team/parse-suite.js';
import { getHealth } from '../../protocol/client/server-gets.js';
import { SystemOneError } from '../../protocol/client/errors.js';
import { shownUrl, withoutCredentials } from '../../protocol/wire/endpoint.js';
import { openStore } from '../../store/open-store.js';
import type { RunClaimOwner } from '../../store/run-claim.js';
import type { StoredRunHead } from '../../store/stored-run.js';
import { executeBench, planBenchFromStore, type BenchReporter } from '../bench/execute-bench.js';
import type { BenchPlan, BenchRequest } from '../bench/plan-bench.js';
import { listStore } from '../runs/stored-runs.js';
import { wiringOf, type UseCaseWiring } from '../use-case-wiring.js';
import { datasetPathOf, type ReadSuite } from './read-suite.js';
import { compareSuiteRuns } from './compare-suite.js';
import { refuseUnusableDatasets } from './check-suite-datasets.js';

/** Sends one job's planned bench run and says how it ended (here, or through a queue). */
export type BenchPlanRunner = (plan: BenchPlan, job: SuiteJob) => Promise<SuiteJobRun>;

/** What a running suite says while it runs. */
export interface SuiteReporter {
  /** A job's bench run is about to send (its start line's facts), or says a note. */
  readonly bench?: (job: SuiteJob) => BenchReporter;
  /** A job ended. */
  readonly onJobEnd?: (job: SuiteJob, run: SuiteJobRun) => void;
}

export interface RunSuiteOptions extends Partial<UseCaseWiring> {
  /** The run store every job's run is kept in. */
  readonly storePath: string;
  /** The store as the user gave it (null: the default), for the hints printed. */
  readonly storeArg: string | null;
  /** Reuse the finished runs recorded for this suite and continue its unfinished ones. */
  readonly resume: boolean;
  /** Where the keys' variables are read, when a run is sent. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where `typed-decisions` is cached. */
  readonly cacheDir?: string;
  readonly claimOwner?: RunClaimOwner;
  readonly reporter?: SuiteReporter;
  /** How a job's plan is sent. Default: in this process (`executeBench`). */
  readonly runner?: BenchPlanRunner;
}

/** Runs a suite read by `readSuiteFile`; the caller renders the outcome. */
export async function runSuite(read: ReadSuite, asked: RunSuiteOptions): Promise<SuiteOutcome> {
  const options = wiringOf(asked);
  const { suite } = read;
  const keyOf = (m: SuiteModel): string | undefined =>
    m.apiKeyEnv === null ? undefined : (options.env[m.apiKeyEnv] ?? undefined);
  // Every dataset read and every server asked before any run: each problem named once.
  await refuseUnusableDatasets(read, options.cacheDir);
  await refuseSilentServers(read, keyOf, options.signal);
  // The store opened (made when missing) once before any run: a path no store can be at is
  // said once, not once a job.
  openStore(options.storePath).close();
  const earlier = options.resume ? earlierRuns(options.storePath) : new Map<string, StoredRunHead>();
  const runner = options.runner ?? inProcessRunner(options);
  const jobs = suiteJobsOf(suite);
  const results = new Map<SuiteJob, SuiteJobRun>();
  const runJob = async (job: SuiteJob): Promise<void> => {
    if (options.signal.aborted) return;
    const before = earlier.get(job.label);
    let run: SuiteJobRun;
    try {
      run =
        before?.status === 'complete'
          ? { kind: 'run', runId: before.id, status: 'complete', reused: true, resumed: false }
          : await runner(
              await planBenchFromStore(requestOf(read, job, options.storePath, keyOf(job.model), before?.id)),
              job,
            );
    } catch (err) {
      // A job refused (its dataset, its run to resume) stops that job, not the others.
      if (!(err instanceof DecidekitError)) throw err;
      run = { kind: 'stopped', runId: before?.id ?? null, words: err.words };
    }
    results.set(job, run);
    options.reporter?.onJobEnd?.(job, run);
  };
  // One lane a server: its jobs one after another; the lanes at once.
  const lanes = await Promise.allSettled(
    [...lanesOf(jobs).values()].map(async (lane) => {
      for (const job of lane) await runJob(job);
    }),
  );
  for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
  const ran: SuiteJobResult[] = jobs.map((job) => ({ job, run: results.get(job) ?? { kind: 'not_started' } }));
  const compared = compareSuiteRuns(suite, ran, options.storePath, options.storeArg, baselineOf(suite), read.file);
  return {
    suite,
    jobs: ran,
    ...compared,
    allComplete: ran.every((r) => r.run.kind === 'run' && r.run.status === 'complete'),
    interrupted: options.signal.aborted,
  };
}

/** The jobs by the server they ask: a remote server's jobs share a lane; each built-in server is its own. */
function lanesOf(jobs: readonly SuiteJob[]): Map<string, SuiteJob[]> {
  const lanes = new Map<string, SuiteJob[]>();
  jobs.forEach((job, i) => {
    const key = job.model.baseUrl === null ? `built-in ${i}` : serverKey(job.model.baseUrl);
    lanes.set(key, [...(lanes.get(key) ?? []), job]);
  });
  return lanes;
}

/** A server as one place: scheme, host, port and path, whatever its spelling or credentials. */
function serverKey(baseUrl: string): string {
  const url = new URL(withoutCredentials(baseUrl).url.trim());
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The bench request of one job: the suite's options, the dataset's cases, the model's server and key. */
function requestOf(
  read: ReadSuite,
  job: SuiteJob,
  storePath: string,
  apiKey: string | undefined,
  resume: string | undefined,
): BenchRequest {
  const { options } = read.suite;
  const { model, dataset } = job;
  const path = datasetPathOf(dataset.dataset, read.folder);
  const limit = dataset.sample === null ? (dataset.limit ?? options.limit) : null;
  const sample = dataset.limit === null ? (dataset.sample ?? options.sample) : null;
  const conventions: ConventionChoice = options.seed === null ? {} : { seed: options.seed };
  const given = <K extends keyof BenchRequest>(key: K, value: BenchRequest[K] | null | undefined) =>
    value === null || value === undefined ? {} : { [key]: value };
  return {
    storePath,
    label: job.label,
    conventions,
    dataset:
      path === null ? { kind: dataset.dataset === 'sample' ? 'sample' : 'typed-decisions' } : { kind: 'path', path },
    ...given('baseUrl', model.baseUrl),
    ...given('model', model.model),
    ...given('apiKey', apiKey),
    ...given('parallel', model.parallel ?? options.parallel),
    ...given('timeoutSec', options.timeoutSec),
    ...given('retries', options.retries),
    ...given('limit', limit),
    ...given('sample', sample === null ? null : { cases: sample, seed: options.seed ?? 1 }),
    ...given('workflow', dataset.workflow),
    ...given('pricePerMtokUsd', options.pricePerMtokUsd),
    ...given('resume', resume),
  };
}

/** The newest run of each label in the store: what an earlier try of the suite left. */
function earlierRuns(storePath: string): Map<string, StoredRunHead> {
  const found = new Map<string, StoredRunHead>();
  // Newest first: the first run of a label is the one to take up.
  for (const head of listStore(storePath).runs)
    if (head.label !== null && head.label.startsWith('suite ') && !found.has(head.label)) found.set(head.label, head);
  return found;
}

/** The runner that sends a job's plan in this process. */
function inProcessRunner(options: RunSuiteOptions & UseCaseWiring): BenchPlanRunner {
  return async (plan, job) => {
    const outcome = await executeBench(plan, {
      toolVersion: options.toolVersion,
      signal: options.signal,
      now: options.now,
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
      ...(options.claimOwner === undefined ? {} : { claimOwner: options.claimOwner }),
      ...(options.reporter?.bench === undefined ? {} : { reporter: options.reporter.bench(job) }),
    });
    if (outcome.kind === 'stopped') return { kind: 'stopped', runId: outcome.incompleteRunId, words: outcome.words };
    outcome.dispose();
    return {
      kind: 'run',
      runId: outcome.run.id,
      status: outcome.run.summary.status,
      reused: false,
      resumed: plan.resume !== null,
    };
  };
}

/**
 * Every remote server asked `GET /health` (with its key) before any work: one that does not
 * answer, or refuses the key, is named at its model's base_url, each server once.
 */
async function refuseSilentServers(
  read: ReadSuite,
  keyOf: (m: SuiteModel) => string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const asked = new Map<string, Promise<string | null>>();
  const problems: InputProblem[] = [];
  await Promise.all(
    read.suite.models.map(async (model, i) => {
      if (model.baseUrl === null) return;
      const key = `${serverKey(model.baseUrl)} ${model.apiKeyEnv ?? ''}`;
      const first = !asked.has(key);
      if (first) asked.set(key, whyServerIsUnusable(model, keyOf(model), signal));
      const why = await asked.get(key)!;
      if (why === null || !first) return;
      const path = ['models', i, 'base_url'];
      problems.push({
        file: read.file,
        line: read.lineOf(path),
        field: fieldName(path),
        message: `${fieldName(path)}: ${why}`,
      });
    }),
  );
  if (problems.length > 0) throw new InvalidInputError(problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
}

/** Why a server cannot be used (nothing answers, the key is missing or refused), or null. */
async function whyServerIsUnusable(
  model: SuiteModel,
  apiKey: string | undefined,
  signal: AbortSignal,
): Promise<string | null> {
  const url = shownUrl(model.baseUrl!);
  try {
    const { httpStatus } = await getHealth(model.baseUrl!, { apiKey, signal, timeoutMs: 10_000 });
    if (httpStatus !== 401 && httpStatus !== 403) return null;
    return apiKey === undefined
      ? `the server at ${url} refused the request without a key (HTTP ${httpStatus}): name the environment variable that holds its key in api_key_env`
      : `the server at ${url} refused the key in ${model.apiKeyEnv} (HTTP ${httpStatus})`;
  } catch (err) {
    // Ctrl+C while asking: nothing is wrong with the server; the suite ends as interrupted.
    if (signal.aborted) return null;
    if (err instanceof SystemOneError) return `no server answers at ${url} (${err.shortMessage})`;
    throw err;
  }
}
