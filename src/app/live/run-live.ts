/**
 * The live monitor's use case: poll a decision model one case at a time, forever, in a
 * fixed seeded order, scoring every answer exactly as `bench` does (`scoreCase`), and read
 * the server's `/metrics` on the side. `openLive` does everything that can fail before a
 * screen opens (dataset, `--record` file, embedded server, the first poll: a server that
 * does not serve decision models, or where nothing listens, stops here); `LiveSession.run`
 * then emits monitor events until the signal aborts. It never draws or prints.
 */
import { given } from '../../core/given.js';
import { closeSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../../core/typed-decisions/case-result.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { pollOrder } from '../../core/live/poll-order.js';
import { loadBenchDataset, sampleDir } from '../../datasets/typed-decisions/load-bench-dataset.js';
import {
  createSystemOneClient,
  defaultSleep,
  elapsedMsOf,
  failureOf,
  isRunStopping,
  type SystemOneClient,
} from '../../protocol/client/client.js';
import { InvalidBaseUrlError, SystemOneError } from '../../protocol/client/errors.js';
import { readMetricsAt } from '../../protocol/client/server-gets.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { metricsUrlFor, redactUrl } from '../../protocol/wire/endpoint.js';
import { singleLine } from '../../reports/format.js';
import type { LiveEvent, LiveInfo } from '../../monitor/live-state.js';
import { renderPollRecord } from '../../monitor/poll-lines.js';
import { datasetSourceOf, type DatasetChoice } from '../dataset-choice.js';
import { DEFAULT_EMBEDDED_MODEL, refuseUnusableBaseUrl } from '../server-plan.js';
import { refuseUnsafeHeaderValue } from '../../core/header-value.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { refuseIrregularFileSync } from '../../datasets/input-file.js';
import { outputFileOf, prepareOutputPath, type ReadFile } from '../output-file.js';

export interface LiveRequest {
  /** Without it, the built-in reference server runs in this process with `/metrics` on. */
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
  /** Default the bundled synthetic sample. */
  readonly dataset?: DatasetChoice;
  /** Pause between polls (default 500 ms). */
  readonly intervalMs?: number;
  /** Per poll (default 10 000 ms). */
  readonly timeoutMs?: number;
  /** Default `<base URL>/metrics`. */
  readonly metricsUrl?: string;
  /** Append every poll's outcome and scores as JSONL here (into a folder: `live-record.jsonl`). */
  readonly recordPath?: string;
}

export const DEFAULT_INTERVAL_MS = 500;
export const DEFAULT_POLL_TIMEOUT_MS = 10_000;
/** How often `/metrics` is read. */
export const METRICS_EVERY_MS = 1000;
const PREVIEW_CHARS = 240;

export interface LiveEnvironment {
  readonly cacheDir: string;
  /** Monotonic milliseconds. */
  readonly now: () => number;
  /** Wall clock, for the record's timestamps. */
  readonly clock?: () => Date;
  /** Waits between polls; rejects or resolves early when the signal aborts (default a timer). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A poll as the session reports it: the monitor event plus the wall-clock time it ended. */
export interface LivePoll {
  readonly event: Extract<LiveEvent, { type: 'poll' }>;
  readonly atIso: string;
}

export interface LiveSession {
  readonly info: LiveInfo;
  /** Emits the first poll (sent by `openLive`), then polls and metrics until `signal` aborts. */
  run(signal: AbortSignal, handlers: LiveHandlers): Promise<void>;
  /** Stops the embedded server, closes the client and the record file. */
  close(): Promise<void>;
}

export interface LiveHandlers {
  readonly onPoll: (poll: LivePoll) => void;
  readonly onMetrics: (event: Extract<LiveEvent, { type: 'metrics' | 'metrics-error' }>) => void;
}

/** The first contact failed in a way no later poll can fix: no screen is opened. */
export class LiveFirstContactError extends DecidekitError {
  constructor(cause: unknown) {
    super(
      'live_first_contact',
      words`stopped before the screen opened: ${cause instanceof Error ? cause : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/**
 * The files a live session reads from its dataset, which `--record` must never be: the file
 * given, or every file of the folder given (its manifest and data files), or of the bundled sample.
 */
function datasetFilesOf(choice: DatasetChoice): ReadFile[] {
  const [named, path] =
    choice.kind === 'path'
      ? [option('dataset'), choice.path]
      : choice.kind === 'sample'
        ? ['the bundled sample', sampleDir()]
        : [null, null];
  if (named === null || path === null) return [];
  return [{ named, path }, ...filesUnder(path).map((file) => ({ named, path: file }))];
}

/** The files under a folder (and its subfolders); none when it is not a folder or cannot be read. */
function filesUnder(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? filesUnder(join(folder, e.name)) : e.isFile() ? [join(folder, e.name)] : [],
  );
}

/** Opens a session: everything that can stop the command happens here, before any screen. */
export async function openLive(request: LiveRequest, env: LiveEnvironment): Promise<LiveSession> {
  if (request.apiKey !== undefined) refuseUnsafeHeaderValue('apiKey', request.apiKey);
  refuseUnusableBaseUrl(request.baseUrl);
  // Checked before the dataset is read, by the one rule of every output path; opened after.
  const choice = request.dataset ?? { kind: 'sample' };
  const recordPlace =
    request.recordPath === undefined
      ? null
      : await prepareOutputPath(request.recordPath, 'recordPath', {
          inputs: datasetFilesOf(choice),
          fileName: LIVE_RECORD_FILE,
        });
  const dataset = await loadBenchDataset(datasetSourceOf(choice, env.cacheDir));
  if (dataset.cases.length === 0)
    throw new DecidekitError('live_no_cases', `the dataset ${dataset.location} has no cases`);
  const record = recordPlace === null ? null : openRecord(outputFileOf(recordPlace, LIVE_RECORD_FILE));
  let server: ReferenceServer | null = null;
  let client: SystemOneClient | null = null;
  try {
    if (request.baseUrl === undefined)
      server = await startReferenceServer({
        host: '127.0.0.1',
        port: 0,
        model: request.model ?? DEFAULT_EMBEDDED_MODEL,
        metrics: true,
      });
    const baseUrl = server?.url ?? request.baseUrl!;
    client = createClient({
      baseUrl,
      ...(request.apiKey === undefined || server !== null ? {} : { apiKey: request.apiKey }),
      ...given({ model: request.model }),
      timeoutMs: request.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS,
      // A poll shows the model as it is: a failure is not hidden behind a retry.
      retries: 0,
      connections: 1,
    });
    const { metricsUrl, metricsKey } = metricsTarget(request, baseUrl, server !== null);
    const order = pollOrder(dataset.cases.length).map((i) => dataset.cases[i]!);
    const poller = createPoller(client, env, record);
    const first = poller.toPoll((await poller.poll(order[0]!)) as CaseResult, order[0]!);
    poller.firstContactDone();
    const loops: LiveLoops = {
      order,
      poller,
      first,
      sleep: env.sleep ?? defaultSleep,
      intervalMs: request.intervalMs ?? DEFAULT_INTERVAL_MS,
      metricsUrl,
      metricsKey,
      now: () => env.now(),
    };
    const openedClient = client;
    const openedServer = server;
    return {
      info: {
        target: openedServer ? openedServer.url : openedClient.endpoint,
        embedded: openedServer !== null,
        model: openedServer ? openedServer.model : (request.model ?? null),
        datasetCredit: dataset.info.synthetic
          ? `synthetic sample (${dataset.info.id}): not Typed Decisions scores`
          : singleLine(dataset.info.attribution),
        cases: order.length,
        intervalMs: loops.intervalMs,
      },
      run: (outer, handlers) => runLiveLoops(loops, outer, handlers),
      async close() {
        await openedClient.close();
        await openedServer?.close();
        record?.close();
      },
    };
  } catch (error) {
    await client?.close();
    await server?.close();
    record?.close();
    throw error;
  }
}

/** Where `/metrics` is read, and the key sent there (only when it is the model server itself). */
function metricsTarget(
  request: LiveRequest,
  baseUrl: string,
  embedded: boolean,
): { metricsUrl: string; metricsKey: string | undefined } {
  const metricsUrl = request.metricsUrl ?? metricsUrlFor(baseUrl);
  if (!URL.canParse(metricsUrl) || !/^https?:$/.test(new URL(metricsUrl).protocol))
    throw new OptionError(
      'metricsUrl',
      // Shown redacted: a user and password in it are never printed.
      words`${option('metricsUrl')} ${JSON.stringify(redactUrl(request.metricsUrl ?? ''))} is not an http(s) URL`,
    );
  const metricsKey =
    request.apiKey !== undefined && !embedded && new URL(metricsUrl).origin === new URL(baseUrl).origin
      ? request.apiKey
      : undefined;
  return { metricsUrl, metricsKey };
}

interface Poller {
  /** Sends one case and scores the answer; 'stopping' when the signal aborted it. */
  poll(benchCase: TypedDecisionsCase, signal?: AbortSignal): Promise<CaseResult | 'stopping'>;
  /** The poll as reported, appended to the record file when there is one. */
  toPoll(result: CaseResult, benchCase: TypedDecisionsCase): LivePoll;
  /** After the first poll, an error that ends a run is a failed poll, no longer a reason not to open. */
  firstContactDone(): void;
}

function createPoller(client: SystemOneClient, env: LiveEnvironment, record: LiveRecord | null): Poller {
  let firstContact = true;
  const clock = env.clock ?? (() => new Date());
  return {
    async poll(benchCase, signal) {
      const t0 = env.now();
      try {
        const answer = await client.decide(benchCase.state, benchCase.questions, signal);
        return scoreCase(benchCase, {
          status: 'answered',
          latencyMs: answer.latencyMs,
          inputTokens: answer.inputTokens,
          predicted: answer.predicted,
        });
      } catch (error) {
        if (signal?.aborted) return 'stopping';
        if (firstContact && isRunStopping(error)) {
          throw new LiveFirstContactError(error);
        }
        return scoreCase(benchCase, {
          status: 'failed',
          failure: failureOf(error),
          latencyMs: elapsedMsOf(error) ?? env.now() - t0,
        });
      }
    },
    toPoll(result, benchCase) {
      const atIso = clock().toISOString();
      if (record !== null) record.append(renderPollRecord(result, atIso));
      return {
        event: { type: 'poll', atMs: env.now(), result, statePreview: previewOf(benchCase.state) },
        atIso,
      };
    },
    firstContactDone() {
      firstContact = false;
    },
  };
}

/** What the two loops of an open session share. */
interface LiveLoops {
  readonly order: readonly TypedDecisionsCase[];
  readonly poller: Poller;
  readonly first: LivePoll;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly intervalMs: number;
  readonly metricsUrl: string;
  readonly metricsKey: string | undefined;
  readonly now: () => number;
}

/** Emits the first poll, then polls and reads metrics side by side until `outer` aborts. */
async function runLiveLoops(loops: LiveLoops, outer: AbortSignal, handlers: LiveHandlers): Promise<void> {
  // A failing handler (a --record write error) stops both loops, not just its own.
  const failed = new AbortController();
  const signal = AbortSignal.any([outer, failed.signal]);
  const guard = (loop: () => Promise<void>) => async () => {
    try {
      await loop();
    } catch (error) {
      failed.abort(error);
      throw error;
    }
  };
  handlers.onPoll(loops.first);
  const { sleep } = loops;
  const pause = (ms: number) => sleep(ms, signal).catch(() => undefined);
  const outcomes = await Promise.allSettled([
    guard(() => pollLoop(loops, signal, pause, handlers))(),
    guard(() => metricsLoop(loops, signal, pause, handlers))(),
  ]);
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
}

async function pollLoop(
  loops: LiveLoops,
  signal: AbortSignal,
  pause: (ms: number) => Promise<void>,
  handlers: LiveHandlers,
): Promise<void> {
  const { order, poller } = loops;
  for (let i = 1; !signal.aborted; i++) {
    await pause(loops.intervalMs);
    if (signal.aborted) break;
    const benchCase = order[i % order.length]!;
    const result = await poller.poll(benchCase, signal);
    if (result === 'stopping') break;
    handlers.onPoll(poller.toPoll(result, benchCase));
  }
}

async function metricsLoop(
  loops: LiveLoops,
  signal: AbortSignal,
  pause: (ms: number) => Promise<void>,
  handlers: LiveHandlers,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const m = await readMetricsAt(loops.metricsUrl, {
        ...given({ apiKey: loops.metricsKey }),
        timeoutMs: 2000,
        signal,
      });
      if (signal.aborted) break;
      handlers.onMetrics({ type: 'metrics', atMs: loops.now(), metrics: m });
      // No /metrics on this server: the panel shows latency and tokens only.
      if (m === null) break;
    } catch (error) {
      if (signal.aborted) break;
      handlers.onMetrics({
        type: 'metrics-error',
        atMs: loops.now(),
        message:
          error instanceof SystemOneError ? error.shortMessage : error instanceof Error ? error.message : String(error),
      });
    }
    await pause(METRICS_EVERY_MS);
  }
}

/** One line of a case's state for the "now" panel. */
export function previewOf(state: string | object): string {
  const text = singleLine(typeof state === 'string' ? state : JSON.stringify(state));
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** The record's name in a folder given as its path. */
const LIVE_RECORD_FILE = 'live-record.jsonl';

interface LiveRecord {
  append(line: string): void;
  close(): void;
}

function openRecord(path: string): LiveRecord {
  let fd: number;
  try {
    // A named pipe would block the open until something reads it.
    refuseIrregularFileSync(path);
    // The output rule leaves missing folders to be made when the file is opened.
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, 'a');
  } catch (error) {
    throw new OptionError(
      'recordPath',
      words`${option('recordPath')} ${path}: cannot be opened for appending (${fileErrorWords(error)})`,
    );
  }
  let open = true;
  return {
    append(line) {
      if (!open) return;
      try {
        writeSync(fd, `${line}\n`);
      } catch (error) {
        throw new DecidekitError(
          'record_write_failed',
          words`${option('recordPath')} ${path}: cannot append (${fileErrorWords(error)})`,
          { cause: error },
        );
      }
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** A malformed base URL is an option error (exit 2 on the command line), not a failed poll. */
function createClient(options: Parameters<typeof createSystemOneClient>[0]): SystemOneClient {
  try {
    return createSystemOneClient(options);
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) throw new OptionError('baseUrl', words`${option('baseUrl')}: ${error}`);
    throw error;
  }
}
