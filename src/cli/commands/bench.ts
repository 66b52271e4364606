import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CaseResult } from '../../core/bench/case-result.js';
import type { BenchRun, EndpointIdentity, RunConfig } from '../../core/bench/run.js';
import { DecidekitError, UsageError } from '../../core/errors.js';
import { createSystemOneClient, elapsedMsOf, failureOf, isRunStopping } from '../../protocol/client/client.js';
import { InvalidBaseUrlError } from '../../protocol/client/errors.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import {
  defaultCacheDir,
  loadBenchDataset,
  SAMPLE_ID,
  TYPED_DECISIONS_ID,
  type DatasetSource,
} from '../../datasets/typed-decisions/index.js';
import { runBenchmark } from '../../runner/run-benchmark.js';
import { defaultStorePath } from '../../store/default-store-path.js';
import { fingerprintOf } from '../../store/fingerprint.js';
import { checkResumable } from '../../store/resume-check.js';
import type { RunStore } from '../../store/run-store.js';
import { summarizeRun } from '../../store/run-summary.js';
import { renderBenchJson } from '../../reports/bench/bench-json.js';
import { renderBenchMarkdown } from '../../reports/bench/bench-markdown.js';
import { renderBenchTerminal } from '../../reports/bench/bench-terminal.js';
import { numberOption, parseCommandArgs, type Command } from '../command.js';
import { colourEnabled, type CliIo } from '../io.js';
import { createProgressWriter } from '../progress-writer.js';
import { TOOL_VERSION } from '../version.js';

const HELP = `decidekit bench: run a Typed Decisions benchmark against a System One server

Usage: decidekit bench [options]

Without --base-url, starts the built-in reference server on a free loopback port and
benchmarks its default model on the bundled synthetic sample.

Options:
  --base-url URL         server base URL (endpoint: <URL>/v1/systemone); default: embedded reference server
  --model NAME           sent as "model"; with the embedded server, picks the built-in model
                         (uniform, prior, heuristic; default heuristic)
  --api-key KEY          Bearer key (or env DECIDEKIT_API_KEY); never stored or printed
  --dataset D            sample | typed-decisions | PATH (.parquet, .jsonl, .jsonl.gz); default sample
  --parallel N           requests in flight (default 1)
  --timeout SEC          per-request timeout in seconds (default 60)
  --retries N            retries of 429/502/503/504 (default 2)
  --limit N              only the first N cases (a filtered run, never compared with a full one)
  --workflow W           only cases of workflow W (filtered run)
  --price-per-mtok USD   price per million input tokens: total cost and cost per correct decision
  --out DIR              write <run>.json and <run>.md into DIR
  --store PATH           run store (default $XDG_DATA_HOME/decidekit/runs.sqlite)
  --no-store             do not keep the run
  --label TEXT           a label shown in 'decidekit runs list'
  --resume RUN           continue a stored run: send only the cases without a saved answer;
                         dataset, filters, server and model default to the run's own
  --retry-failed         with --resume, also re-send cases that failed
  --redact               show the server host as <redacted> in reports
  --json                 print the run as one JSON document; progress as JSON lines on stderr

Exit codes: 0 complete, 1 incomplete run or invalid input, 2 usage error, 130 interrupted.

Examples:
  decidekit bench
  decidekit bench --base-url http://127.0.0.1:8080 --model laya --parallel 8 --out reports/
  decidekit bench --resume 20261130-041512-ab12
`;

/** Node timers hold at most 2^31 - 1 ms (about 24.8 days). */
const MAX_TIMEOUT_SEC = Math.floor((2 ** 31 - 1) / 1000);

const EMBEDDED_IDENTITY: EndpointIdentity = {
  scheme: 'embedded',
  host: 'reference-server',
  port: 0,
  path: '/v1/systemone',
};

function datasetSource(value: string | undefined, io: CliIo): DatasetSource {
  if (value === undefined || value === 'sample') return { kind: 'sample' };
  if (value === 'typed-decisions') return { kind: 'typed-decisions', cacheDir: defaultCacheDir(io.env) };
  return { kind: 'path', path: resolve(io.cwd, value) };
}

export const command: Command = {
  name: 'bench',
  handlesSignals: true,
  summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
  help: HELP,
  async run(argv, io) {
    const { values: v } = parseCommandArgs(argv, {
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      dataset: { type: 'string' },
      parallel: { type: 'string' },
      timeout: { type: 'string' },
      retries: { type: 'string' },
      limit: { type: 'string' },
      workflow: { type: 'string' },
      'price-per-mtok': { type: 'string' },
      out: { type: 'string' },
      store: { type: 'string' },
      'no-store': { type: 'boolean' },
      label: { type: 'string' },
      resume: { type: 'string' },
      'retry-failed': { type: 'boolean' },
      redact: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const parallel = numberOption('parallel', v.parallel, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1') ?? 1;
    const timeoutSec =
      numberOption(
        'timeout',
        v.timeout,
        (n) => n > 0 && n <= MAX_TIMEOUT_SEC,
        `seconds, > 0 and at most ${MAX_TIMEOUT_SEC}`,
      ) ?? 60;
    const retries =
      numberOption('retries', v.retries, (n) => Number.isInteger(n) && n >= 0 && n <= 10, 'an integer 0..10') ?? 2;
    const limit = numberOption('limit', v.limit, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1');
    const price = numberOption('price-per-mtok', v['price-per-mtok'], (n) => n >= 0, 'USD >= 0');
    if (v['retry-failed'] && !v.resume) throw new UsageError('--retry-failed goes with --resume RUN');
    if (v['no-store'] && v.resume) throw new UsageError('--resume needs the run store; drop --no-store');
    const apiKey = v['api-key'] ?? io.env['DECIDEKIT_API_KEY'];
    const json = v.json === true;
    const say = (line: string) => (json ? undefined : io.stderr.write(`${line}\n`));

    const storePath = v.store === undefined ? defaultStorePath(io.env) : resolve(io.cwd, v.store);
    // `--resume RUN` alone continues a run as it was started: what the command line leaves
    // out (dataset, filters, server, model) comes from the stored run.
    const stored = v.resume === undefined ? null : await storedRun(storePath, v.resume);
    const resumed = stored?.config ?? null;
    const datasetArg = v.dataset ?? (resumed ? datasetArgOf(resumed) : undefined);
    const workflow = v.workflow ?? resumed?.filters.workflow ?? undefined;
    const caseLimit = limit ?? resumed?.filters.limit ?? undefined;
    const baseUrlArg =
      v['base-url'] ?? (resumed && resumed.embeddedServer === null ? baseUrlOf(resumed.endpoint) : undefined);
    const modelArg = v.model ?? (resumed ? (resumed.embeddedServer?.model ?? resumed.model ?? undefined) : undefined);

    const dataset = await loadBenchDataset(datasetSource(datasetArg, io));
    let cases = dataset.cases;
    if (workflow !== undefined) {
      const known = [...new Set(cases.map((c) => c.workflow))];
      if (!known.includes(workflow))
        throw new UsageError(`--workflow ${workflow} is not in the dataset (workflows: ${known.join(', ')})`);
      cases = cases.filter((c) => c.workflow === workflow);
    }
    if (caseLimit !== undefined) cases = cases.slice(0, caseLimit);

    const embedded = baseUrlArg === undefined;
    const embeddedModel = modelArg ?? 'heuristic';
    // SQLite is loaded only when the run is kept; opened before the server starts, so a bad
    // store path never leaves a server running.
    const store: RunStore | null = v['no-store']
      ? null
      : (await import('../../store/sqlite-run-store.js')).openRunStore(storePath);
    let server: ReferenceServer | null = null;
    try {
      if (embedded) server = await startReferenceServer({ host: '127.0.0.1', port: 0, model: embeddedModel });
      const baseUrl = server ? server.url : baseUrlArg!;
      const client = createClientOrUsageError({
        baseUrl,
        ...(apiKey !== undefined && !embedded ? { apiKey } : {}),
        ...(embedded ? { model: embeddedModel } : modelArg !== undefined ? { model: modelArg } : {}),
        timeoutMs: timeoutSec * 1000,
        retries,
        connections: parallel,
      });
      let config: RunConfig = {
        toolVersion: TOOL_VERSION,
        dataset: dataset.info,
        caseIds: cases.map((c) => c.id),
        questionSet: dataset.questionSet,
        model: embedded ? embeddedModel : (modelArg ?? null),
        endpoint: embedded ? EMBEDDED_IDENTITY : client.identity,
        embeddedServer: embedded ? { model: embeddedModel } : null,
        parallel,
        timeoutMs: timeoutSec * 1000,
        retries,
        filters: { limit: caseLimit ?? null, workflow: workflow ?? null },
        pricePerMtokUsd: price ?? null,
      };

      // A resumed run keeps its id, creation time and the cases it already has.
      let runId: string | null = null;
      let createdAt = new Date().toISOString();
      let label = v.label ?? null;
      let kept = new Map<string, CaseResult>();
      let priorDurationMs = 0;
      if (stored !== null) {
        // Read once, before anything started (see `storedRun`).
        const id = stored.id;
        const check = checkResumable(stored.config, config);
        if (!check.ok)
          throw new DecidekitError('not_resumable', `cannot resume run ${id}: ${check.reasons.join('; ')}`);
        runId = id;
        // The stored configuration stays the run's record (its price included), so the stored
        // summary always agrees with one recomputed from the stored cases; only how this
        // session sends (parallel, timeout, retries) is new.
        config = { ...stored.config, parallel: config.parallel, timeoutMs: config.timeoutMs, retries: config.retries };
        if (price !== undefined && price !== stored.config.pricePerMtokUsd) {
          io.stderr.write(
            `decidekit bench: note: keeping the run's price (${stored.config.pricePerMtokUsd ?? 'none'} per Mtok); --price-per-mtok ${price} applies to new runs\n`,
          );
        }
        createdAt = stored.createdAt;
        label = v.label ?? stored.label;
        priorDurationMs = stored.durationMs ?? 0;
        for (const r of stored.cases) if (r.request.status === 'answered' || !v['retry-failed']) kept.set(r.caseId, r);
      }
      const toSend = cases.filter((c) => !kept.has(c.id));

      const where = embedded
        ? `the built-in reference server (model ${embeddedModel}, ${server!.url})`
        : client.endpoint;
      say(
        `decidekit bench: ${toSend.length} of ${cases.length} cases (${dataset.info.synthetic ? 'synthetic sample' : dataset.info.id}) against ${where}` +
          (runId ? `, resuming run ${runId}` : '') +
          (config.filters.limit !== null || config.filters.workflow !== null ? ' [filtered run]' : ''),
      );

      const progress = createProgressWriter(io.stderr, json ? 'json' : io.stderr.isTTY ? 'bar' : 'lines', {
        colour: colourEnabled(io.stderr, io.env),
        now: () => performance.now(),
      });
      const ensureRun = (): string => {
        if (runId === null)
          runId = store
            ? store.createRun({ config, label, createdAt }).id
            : `unsaved-${createdAt.replace(/[-:.TZ]/g, '').slice(0, 14)}`;
        return runId;
      };
      const outcome = await runBenchmark({
        cases: toSend,
        client,
        parallel,
        failureOf,
        isRunStopping,
        elapsedMsOf,
        signal: io.signal,
        now: () => performance.now(),
        checkpoint: (results) => {
          const id = ensureRun();
          store?.saveCases(id, results);
        },
        onEvent: (e) => {
          if (e.type === 'case') progress.update(e.progress);
        },
      });
      progress.finish();
      await client.close();

      if (outcome.stopped?.reason === 'unsupported') {
        const message =
          outcome.stopped.error instanceof Error ? outcome.stopped.error.message : String(outcome.stopped.error);
        if (runId !== null)
          store?.finishRun(runId, {
            status: 'incomplete',
            durationMs: priorDurationMs + outcome.durationMs,
            summary: summarizeRun(config, [...kept.values(), ...outcome.results]),
          });
        io.stderr.write(`decidekit bench: stopped: ${message}\n`);
        return 1;
      }
      const fresh = new Map(outcome.results.map((r) => [r.caseId, r]));
      const all = cases.flatMap((c) => {
        const r = fresh.get(c.id) ?? kept.get(c.id);
        return r ? [r] : [];
      });
      const interrupted = outcome.stopped?.reason === 'aborted';
      const summary = summarizeRun(config, all, { interrupted });
      const id = ensureRun();
      const durationMs = priorDurationMs + outcome.durationMs;
      store?.finishRun(id, { status: summary.status, durationMs, summary });
      const run: BenchRun = {
        id,
        createdAt,
        durationMs,
        label,
        fingerprint: fingerprintOf(config),
        config,
        summary,
        cases: all,
      };

      if (v.out !== undefined) {
        const dir = resolve(io.cwd, v.out);
        await mkdir(dir, { recursive: true });
        const states = new Map(cases.map((c) => [c.id, c.state] as const));
        await writeFile(join(dir, `${id}.json`), renderBenchJson(run));
        await writeFile(join(dir, `${id}.md`), renderBenchMarkdown(run, { states, redactHost: v.redact === true }));
        say(`wrote ${join(dir, `${id}.json`)} and ${join(dir, `${id}.md`)}`);
      }
      if (json) io.stdout.write(renderBenchJson(run));
      else
        io.stdout.write(
          renderBenchTerminal(run, {
            colour: colourEnabled(io.stdout, io.env),
            redactHost: v.redact === true,
            ...(io.stdout.columns ? { width: io.stdout.columns } : {}),
          }),
        );
      if (interrupted) {
        io.stderr.write(
          `decidekit bench: interrupted; ${all.length} of ${cases.length} cases kept.${store ? ` Resume with: decidekit bench --resume ${id}` : ''}\n`,
        );
        return 130;
      }
      if (store && !json) say(`run ${id} saved; see 'decidekit runs show ${id}'`);
      return summary.status === 'complete' ? 0 : 1;
    } finally {
      store?.close();
      await server?.close();
    }
  },
};

/** A malformed --base-url is a usage error (exit 2), not a failed run. */
function createClientOrUsageError(options: Parameters<typeof createSystemOneClient>[0]) {
  try {
    return createSystemOneClient(options);
  } catch (err) {
    if (err instanceof InvalidBaseUrlError) throw new UsageError(`--base-url: ${err.message}`);
    throw err;
  }
}

/** A stored run (config and saved cases), read before anything starts. */
async function storedRun(storePath: string, prefix: string): Promise<BenchRun> {
  const { openRunStore } = await import('../../store/sqlite-run-store.js');
  const store = openRunStore(storePath, { mustExist: true });
  try {
    return store.getRun(store.resolveId(prefix))!;
  } finally {
    store.close();
  }
}

/** The --dataset value that names a stored run's dataset, when it can be found again by name. */
function datasetArgOf(config: RunConfig): string {
  if (config.dataset.id === SAMPLE_ID) return 'sample';
  if (config.dataset.id === TYPED_DECISIONS_ID) return 'typed-decisions';
  throw new UsageError(`run's dataset ${config.dataset.id} was given by path: pass --dataset PATH again to resume it`);
}

/** A base URL back from a stored endpoint identity (never had credentials or a query). */
function baseUrlOf(endpoint: EndpointIdentity): string {
  return `${endpoint.scheme}://${endpoint.host}:${endpoint.port}${endpoint.path.replace(/\/v1\/systemone$/, '')}`;
}
