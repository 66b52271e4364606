import { UsageError } from '../../core/errors.js';
import type { FaultOptions } from '../../protocol/server/faults.js';
import { hasFaults } from '../../protocol/server/faults.js';
import { BUILT_IN_MODEL_NAMES, DEFAULT_MODEL } from '../../protocol/server/models/index.js';
import { startReferenceServer } from '../../protocol/server/server.js';
import { numberOption, parseCommandArgs, type Command } from '../command.js';

const HELP = `decidekit serve: run the built-in System One reference server

Usage: decidekit serve [options]

Serves POST /v1/systemone with one built-in model (the body's "model" is ignored, as a
single-model llama-server does; with --router it picks among the built-in models),
GET /health, GET /v1/models and, with --metrics, GET /metrics (llama.cpp counters).

Options:
  --host HOST            interface to listen on (default 127.0.0.1)
  --port N               port; 0 picks a free one (default 8084)
  --model NAME           the model served: ${BUILT_IN_MODEL_NAMES.join(', ')} (default ${DEFAULT_MODEL});
                         with --router, the one for requests that name none
  --router               router mode: the body's "model" picks a built-in model; an
                         unknown name is a 400 naming the known ones
  --metrics              serve GET /metrics (otherwise 501, like llama-server)
  --prior-file PATH      answer frequencies for the prior model
                         (default data/typed-decisions-sample/prior.json of the package)
  --max-body-bytes N     request body cap, 413 above it (default 8388608)
  --slots N              requests answered at once; more wait as "deferred" (default 16)

Fault injection (seeded, for testing clients; a warning line is printed when any is on):
  --seed N               seed of every random draw (default 1)
  --latency-ms N         added latency per request (default 0)
  --jitter-ms N          extra latency drawn from [0, N) (default 0)
  --fail-rate R          share of requests answered with --fail-status (default 0)
  --fail-status S        status of those failures (default 500; 429/503 carry Retry-After)
  --retry-after V        Retry-After value sent with 429/503 (default 1)
  --malformed-rate R     share of requests answered 200 with a malformed body (default 0)
  --drop-rate R          share of connections destroyed without a response (default 0)
  --force-status S       answer every decide request with status S (e.g. 404, 501)
  --drip-ms N            send response bodies slowly: a chunk every N ms
  --drip-bytes N         bytes per drip chunk (default 16)

Prints the URL it listens on, then serves until Ctrl+C or SIGTERM.

Example:
  decidekit serve --port 8084 --model heuristic --metrics
  curl -s http://127.0.0.1:8084/v1/systemone -H 'content-type: application/json' \\
    -d '{"state":"I was charged twice","questions":{"angry":{"type":"noul","instructions":"Is the customer angry?"}}}'
`;

const rate = (n: number) => n >= 0 && n <= 1;
const status = (n: number) => Number.isInteger(n) && n >= 100 && n <= 599;
const nonNegative = (n: number) => n >= 0;

export const command: Command = {
  name: 'serve',
  handlesSignals: true,
  summary: 'run the built-in System One reference server (built-in models, fault injection)',
  help: HELP,
  async run(argv, io) {
    const { values: v } = parseCommandArgs(argv, {
      host: { type: 'string' },
      port: { type: 'string' },
      model: { type: 'string' },
      router: { type: 'boolean' },
      metrics: { type: 'boolean' },
      'prior-file': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      slots: { type: 'string' },
      seed: { type: 'string' },
      'latency-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      'fail-rate': { type: 'string' },
      'fail-status': { type: 'string' },
      'retry-after': { type: 'string' },
      'malformed-rate': { type: 'string' },
      'drop-rate': { type: 'string' },
      'force-status': { type: 'string' },
      'drip-ms': { type: 'string' },
      'drip-bytes': { type: 'string' },
    });
    const model = v.model ?? DEFAULT_MODEL;
    if (!(BUILT_IN_MODEL_NAMES as readonly string[]).includes(model)) {
      throw new UsageError(
        `--model ${JSON.stringify(model)} is not a built-in model (known: ${BUILT_IN_MODEL_NAMES.join(', ')})`,
      );
    }
    const port =
      numberOption('port', v.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'an integer 0..65535') ?? 8084;
    const faults: Record<string, unknown> = {
      seed: numberOption('seed', v.seed, Number.isInteger, 'an integer'),
      latencyMs: numberOption('latency-ms', v['latency-ms'], nonNegative, 'ms >= 0'),
      jitterMs: numberOption('jitter-ms', v['jitter-ms'], nonNegative, 'ms >= 0'),
      failRate: numberOption('fail-rate', v['fail-rate'], rate, 'a rate in [0, 1]'),
      failStatus: numberOption('fail-status', v['fail-status'], status, 'an HTTP status'),
      retryAfter: v['retry-after'],
      malformedRate: numberOption('malformed-rate', v['malformed-rate'], rate, 'a rate in [0, 1]'),
      dropRate: numberOption('drop-rate', v['drop-rate'], rate, 'a rate in [0, 1]'),
      forceStatus: numberOption('force-status', v['force-status'], status, 'an HTTP status'),
      dripIntervalMs: numberOption('drip-ms', v['drip-ms'], nonNegative, 'ms >= 0'),
      dripBytes: numberOption('drip-bytes', v['drip-bytes'], (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1'),
    };
    for (const k of Object.keys(faults)) if (faults[k] === undefined) delete faults[k];
    const faultOptions = faults as FaultOptions;

    const server = await startReferenceServer({
      host: v.host ?? '127.0.0.1',
      port,
      model,
      router: v.router === true,
      metrics: v.metrics === true,
      priorFile: v['prior-file'],
      maxBodyBytes: numberOption(
        'max-body-bytes',
        v['max-body-bytes'],
        (n) => Number.isInteger(n) && n >= 1,
        'an integer >= 1',
      ),
      slots: numberOption('slots', v.slots, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1'),
      faults: hasFaults(faultOptions) ? faultOptions : undefined,
    });
    io.stdout.write(`${server.url}\n`);
    io.stderr.write(
      `decidekit serve: listening on ${server.url} (POST /v1/systemone; ${server.router ? `router mode: models ${server.models.join(', ')}, default ${server.model}` : `model ${server.model}`}; metrics ${v.metrics ? 'on' : 'off'})\n`,
    );
    for (const note of server.notes) io.stderr.write(`decidekit serve: note: ${note}\n`);
    if (hasFaults(faultOptions))
      io.stderr.write(`decidekit serve: fault injection on: ${JSON.stringify(faultOptions)}\n`);

    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    io.stderr.write('decidekit serve: shutting down\n');
    await server.close();
    return 0;
  },
};
