/**
 * The reference System One server: its options, the context its routes share, the dispatch
 * to one route a file (`routes/`), listening and closing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DecidekitError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import type { FaultOptions } from './faults.js';
import { createBuiltInModels, BUILT_IN_MODEL_NAMES, DEFAULT_MODEL } from './models/index.js';
import type { PriorTable } from './models/prior.js';
import { loadPriorTable } from './models/prior-file.js';
import { createServerMetrics, type ServerMetricsSnapshot } from './metrics.js';
import { createRequestSlots } from './request-slots.js';
import { sendError, sleep } from './responses.js';
import type { ServerContext } from './server-context.js';
import { createViolationState, type Violation } from './violations.js';
import { serveDecide } from './routes/decide.js';
import { serveHealth } from './routes/health.js';
import { serveMetrics } from './routes/metrics.js';
import { serveModels } from './routes/models.js';

export interface ReferenceServerOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string | undefined;
  /** Port (default 0: a free port). */
  readonly port?: number | undefined;
  /**
   * The model served (default `heuristic`). Without `router`, every request is answered by
   * it and the body's `model` is ignored, as a single-model llama-server does.
   */
  readonly model?: string | undefined;
  /**
   * Router mode (default false): the body's `model` picks among the built-in models, `model`
   * above answers requests that name none, and an unknown name is a 400 naming the known ones.
   */
  readonly router?: boolean | undefined;
  /** Serve `GET /metrics` (default false: 501 like llama.cpp without `--metrics`). */
  readonly metrics?: boolean | undefined;
  /** Prior file for the `prior` model (default: the package's data/typed-decisions-sample/prior.json when present). */
  readonly priorFile?: string | undefined;
  /** A parsed prior table; wins over `priorFile` (library use and tests). */
  readonly priorTable?: PriorTable | null | undefined;
  /** Seeded fault injection (default none). */
  readonly faults?: FaultOptions | undefined;
  /** Protocol rules to break on purpose, one each (default none): targets for `decidekit probe`. */
  readonly violations?: readonly Violation[] | undefined;
  /** Request body cap; larger bodies get 413 (default 8 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Requests answered at once; more wait as "deferred" (default 16). */
  readonly slots?: number | undefined;
  /** How long `close()` lets in-flight requests finish before dropping them (default 1000 ms). */
  readonly closeGraceMs?: number | undefined;
  /**
   * After a 413 the rest of the refused body is read and thrown away before the connection
   * closes, so a client still sending it can read the answer; past this many bytes (default
   * 64 MiB) or `refusedBodyDrainMs` (default 10 s) the connection is dropped instead.
   */
  readonly refusedBodyDrainBytes?: number | undefined;
  readonly refusedBodyDrainMs?: number | undefined;
}

export interface ReferenceServer {
  /** Base URL, e.g. `http://127.0.0.1:8084`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The model served (the default one in router mode). */
  readonly model: string;
  readonly router: boolean;
  readonly models: readonly string[];
  /** Things the operator should know (e.g. "no prior file: the prior model answers uniformly"). */
  readonly notes: readonly string[];
  /** The llama.cpp-style counters now. */
  metrics(): ServerMetricsSnapshot;
  /** Stops accepting, lets in-flight requests finish (up to the grace), then closes every connection. */
  close(): Promise<void>;
}

export const DEFAULT_SERVER_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_DRAIN_MS = 10_000;

/**
 * Starts the reference System One server (node:http): `POST /v1/systemone` answered by a
 * built-in model (in router mode the body's `model` picks one), `GET /health`,
 * `GET /v1/models`, `GET /metrics` when enabled, with optional seeded faults.
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const notes: string[] = [];
  const context = contextOf(options, notes);
  let inflight = 0;
  const server = http.createServer((req, res) => {
    inflight++;
    res.on('close', () => void inflight--);
    route(context, req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendError(context.metrics, res, 500, `internal error: ${(err as Error).message ?? String(err)}`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await listen(server, host, options.port);
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    model: context.defaultModel,
    router: context.router,
    models: context.modelNames,
    notes,
    metrics: () => context.metrics.snapshot(),
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const deadline = Date.now() + (options.closeGraceMs ?? 1000);
        while (inflight > 0 && Date.now() < deadline) await sleep(10);
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** The options resolved once (models loaded, the default model checked), with the counters and state the routes share. */
function contextOf(options: ReferenceServerOptions, notes: string[]): ServerContext {
  const defaultModel = options.model ?? DEFAULT_MODEL;
  const faults: FaultOptions = options.faults ?? {};
  let priorTable: PriorTable | null;
  if (options.priorTable !== undefined) priorTable = options.priorTable;
  else {
    const loaded = loadPriorTable(options.priorFile);
    priorTable = loaded.table;
    if (loaded.note !== null) notes.push(loaded.note);
  }
  const models = createBuiltInModels(priorTable);
  if (!models.has(defaultModel)) {
    throw new DecidekitError(
      'unknown_model',
      `unknown model ${JSON.stringify(defaultModel)}: the reference server knows ${BUILT_IN_MODEL_NAMES.join(', ')}`,
    );
  }
  const router = options.router === true;
  const metrics = createServerMetrics();
  return {
    defaultModel,
    router,
    models,
    modelNames: router ? [defaultModel, ...BUILT_IN_MODEL_NAMES.filter((n) => n !== defaultModel)] : [defaultModel],
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_SERVER_MAX_BODY_BYTES,
    refusedBodyDrainBytes: options.refusedBodyDrainBytes ?? DEFAULT_REFUSED_BODY_DRAIN_BYTES,
    refusedBodyDrainMs: options.refusedBodyDrainMs ?? DEFAULT_REFUSED_BODY_DRAIN_MS,
    faults,
    faulty: options.faults !== undefined,
    seen: new Map(),
    violations: (options.violations ?? []).length > 0 ? createViolationState(options.violations!, faults.seed) : null,
    serveMetrics: options.metrics === true,
    metrics,
    slots: createRequestSlots(Math.max(1, Math.floor(options.slots ?? 16)), metrics),
  };
}

/** One route a path; any other path is a 404. */
async function route(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  context.metrics.onRequest();
  const path = (req.url ?? '/').split('?')[0]!;
  switch (path) {
    case '/v1/systemone':
      if (req.method !== 'POST') {
        sendError(context.metrics, res, 405, `${req.method} is not allowed on /v1/systemone (use POST)`, {
          allow: 'POST',
        });
        return;
      }
      return serveDecide(context, req, res);
    case '/health':
      return serveHealth(context, req, res);
    case '/v1/models':
      return serveModels(context, req, res);
    case '/metrics':
      return serveMetrics(context, req, res);
    default:
      sendError(context.metrics, res, 404, 'File Not Found');
  }
}

function listen(server: http.Server, host: string, port: number | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(refuseToListen(err, host, port ?? 0)));
    server.listen(port ?? 0, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
}

/**
 * Why the server could not listen, in words (exit 1, not a usage error: the command line was
 * right, the machine said no): a busy port, an address not of this machine, a host name that
 * does not resolve, a port that needs privileges.
 */
export function refuseToListen(err: NodeJS.ErrnoException, host: string, port: number): DecidekitError {
  const where = `${host}:${port}`;
  const says = (message: ReturnType<typeof words>) =>
    new DecidekitError('cannot_listen', message, { context: { host, port }, cause: err });
  switch (err.code) {
    case 'EADDRINUSE':
      return says(
        words`port ${String(port)} on ${host} is in use: pick another with ${option('port')} (0 picks a free one)`,
      );
    case 'EADDRNOTAVAIL':
      return says(
        words`cannot listen on ${where}: ${host} is not an address of this machine (check ${option('host')})`,
      );
    case 'EACCES':
      return says(
        words`cannot listen on ${where}: not permitted (ports below 1024 need privileges; pick another with ${option('port')})`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return says(words`cannot listen on ${host}: the host name does not resolve (check ${option('host')})`);
    default:
      return says(words`cannot listen on ${where}: ${err.message} (check ${option('host')} and ${option('port')})`);
  }
}
