import { given } from '../../core/given.js';
import { UsageError } from '../../core/errors.js';
import { refuseUnsafeHeaderValue } from '../../core/header-value.js';
import { hasFaults, type FaultOptions } from '../../protocol/server/faults.js';
import { BUILT_IN_MODEL_NAMES, DEFAULT_MODEL } from '../../protocol/server/models/model-names.js';
import { VIOLATIONS, isViolation, type Violation } from '../../protocol/server/violations.js';
import { decimal, defineCommand, flag, integer, oneOf, text } from '../define-command.js';
import { interruptedExitCode } from '../io.js';
import { startReferenceServer } from '../../protocol/server/server.js';
import { refuseIrregularFile } from '../../datasets/input-file.js';
import { fileErrorWords } from '../../core/file-error-words.js';

/** How long requests in flight may finish after Ctrl+C or SIGTERM, by default. */
const DRAIN_MS = 10_000;

const rate = (help: string) => decimal('R', help, { min: 0, max: 1, defaultText: '0' });
/** Node timers hold at most 2^31 - 1 ms. */
const milliseconds = (help: string, defaultText?: string) =>
  decimal('N', help, { min: 0, max: 2 ** 31 - 1, ...given({ defaultText }) });
const httpStatus = (help: string, defaultText?: string) =>
  integer('S', help, { min: 100, max: 599, example: '503', ...given({ defaultText }) });

/**
 * A prior file that is a named pipe would block the server's synchronous read for ever (and
 * no signal ends a blocked read), a device would never end: refused before anything starts.
 */
async function refusePriorFileNotRegular(path: string): Promise<void> {
  try {
    await refuseIrregularFile(path);
  } catch (error) {
    throw new UsageError(`--prior-file ${path}: ${fileErrorWords(error)}`);
  }
}

/** `--violate a,b`: protocol rules to break, checked against the known names. */
const violateOption = {
  ...text('LIST', 'break protocol rules on purpose, comma-separated (see below):\na target for `decidekit probe`', {
    example: 'first-option-bias,output-tokens',
  }),
  parse: (raw: string | boolean | string[] | undefined, name: string): Violation[] => {
    if (raw === undefined) return [];
    const names = String(raw)
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    if (names.length === 0) throw new UsageError(`--${name} needs at least one rule name`);
    const unknown = names.filter((x) => !isViolation(x));
    if (unknown.length > 0)
      throw new UsageError(
        `--${name}: unknown rule ${unknown.map((x) => JSON.stringify(x)).join(', ')} (known: ${Object.keys(VIOLATIONS).join(', ')})`,
      );
    return [...new Set(names as Violation[])];
  },
};

const modelOption = oneOf(
  'NAME',
  BUILT_IN_MODEL_NAMES,
  `the model served: ${BUILT_IN_MODEL_NAMES.join(', ')};\nwith --router, the one for requests that name none`,
  { default: DEFAULT_MODEL },
);

export const command = defineCommand({
  name: 'serve',
  summary: 'run the built-in System One reference server (built-in models, fault injection)',
  usage: 'serve [options]',
  description: `Serves POST /v1/systemone with one built-in model (the body's "model" is ignored, as a
single-model llama-server does; with --router it picks among the built-in models),
GET /health, GET /v1/models and, with --metrics, GET /metrics (llama.cpp counters).

Prints the URL it listens on, then serves until Ctrl+C or SIGTERM: it then stops accepting,
lets the requests in flight finish (up to --drain-ms; a second Ctrl+C ends at once) and exits
130 (Ctrl+C) or 143 (SIGTERM), by the Unix convention of 128 + the signal number.`,
  options: {
    host: text('HOST', 'interface to listen on', { default: '127.0.0.1', example: '127.0.0.1' }),
    port: integer('N', 'port; 0 picks a free one', { min: 0, max: 65535, default: 8084, example: '0' }),
    model: {
      ...modelOption,
      parse: (raw, name) => {
        if (typeof raw === 'string' && !(BUILT_IN_MODEL_NAMES as readonly string[]).includes(raw))
          throw new UsageError(
            `--model ${JSON.stringify(raw)} is not a built-in model (known: ${BUILT_IN_MODEL_NAMES.join(', ')})`,
          );
        return modelOption.parse(raw, name);
      },
    },
    router: flag(
      'router mode: the body\'s "model" picks a built-in model; an\nunknown name is a 400 naming the known ones',
    ),
    metrics: flag('serve GET /metrics (otherwise 501, like llama-server)'),
    'prior-file': text('PATH', 'answer frequencies for the prior model', {
      defaultText: 'data/typed-decisions-sample/prior.json of the package',
    }),
    'max-body-bytes': integer('N', 'request body cap, 413 above it', { min: 1, defaultText: '8388608' }),
    slots: integer('N', 'requests answered at once; more wait as "deferred"', { min: 1, defaultText: '16' }),
    seed: integer('N', 'fault injection: seed of every random draw', { min: 0, defaultText: '1' }),
    'latency-ms': milliseconds('fault injection: added latency per request', '0'),
    'jitter-ms': milliseconds('fault injection: extra latency drawn from [0, N)', '0'),
    'fail-rate': rate('fault injection: share of requests answered with --fail-status'),
    'fail-status': httpStatus('status of those failures (429/503 carry Retry-After)', '500'),
    'retry-after': text('V', 'Retry-After value sent with 429/503', { defaultText: '1', example: '1' }),
    'malformed-rate': rate('fault injection: share of requests answered 200 with a malformed body'),
    'drop-rate': rate('fault injection: share of connections destroyed without a response'),
    'force-status': httpStatus('fault injection: answer every decide request with status S (e.g. 404, 501)'),
    'drip-ms': milliseconds('fault injection: send response bodies slowly, a chunk every N ms'),
    'drip-bytes': integer('N', 'bytes per drip chunk', { min: 1, defaultText: '16' }),
    violate: violateOption,
    'drain-ms': milliseconds('on Ctrl+C or SIGTERM: how long requests in flight may finish', '10000'),
  },
  notes: `Fault injection is seeded, for testing clients; a warning line is printed when any is on.

--violate rules (each breaks one thing \`decidekit probe\` checks):
${Object.entries(VIOLATIONS)
  .map(([name, what]) => `  ${name.padEnd(26)}${what}`)
  .join('\n')}`,
  exitCodes:
    '0 only for --help; 130 stopped by Ctrl+C, 143 by SIGTERM (after the requests in flight);\n1 cannot listen or bad --prior-file; 2 usage error (or a --prior-file that is\nnot a regular file).',
  examples: [
    'decidekit serve --port 8084 --model heuristic --metrics',
    'curl -s http://127.0.0.1:8084/v1/systemone \\\n' +
      "  -H 'content-type: application/json' \\\n" +
      '  -d \'{"state": "I was charged twice", "questions": {"angry":\n' +
      '       {"type": "noul", "instructions": "Is the customer angry?"}}}\'',
  ],
  handlesSignals: true,
  async run({ values: v }, io) {
    if (v['retry-after'] !== undefined) refuseUnsafeHeaderValue('retryAfter', v['retry-after']);
    if (v['prior-file'] !== undefined) await refusePriorFileNotRegular(v['prior-file']);
    // Each fault option by its command-line name and its FaultOptions field.
    const given: [string, keyof FaultOptions, unknown][] = [
      ['seed', 'seed', v.seed],
      ['latency-ms', 'latencyMs', v['latency-ms']],
      ['jitter-ms', 'jitterMs', v['jitter-ms']],
      ['fail-rate', 'failRate', v['fail-rate']],
      ['fail-status', 'failStatus', v['fail-status']],
      ['retry-after', 'retryAfter', v['retry-after']],
      ['malformed-rate', 'malformedRate', v['malformed-rate']],
      ['drop-rate', 'dropRate', v['drop-rate']],
      ['force-status', 'forceStatus', v['force-status']],
      ['drip-ms', 'dripIntervalMs', v['drip-ms']],
      ['drip-bytes', 'dripBytes', v['drip-bytes']],
    ];
    const set = given.filter(([, , x]) => x !== undefined);
    const faults = Object.fromEntries(set.map(([, field, x]) => [field, x])) as FaultOptions;
    const server = await startReferenceServer({
      host: v.host,
      port: v.port,
      model: v.model,
      router: v.router,
      metrics: v.metrics,
      priorFile: v['prior-file'],
      maxBodyBytes: v['max-body-bytes'],
      slots: v.slots,
      faults: hasFaults(faults) ? faults : undefined,
      closeGraceMs: v['drain-ms'] ?? DRAIN_MS,
      violations: v.violate,
    });
    io.stdout.write(`${server.url}\n`);
    io.stderr.write(
      `decidekit serve: listening on ${server.url} (POST /v1/systemone; ${server.router ? `router mode: models ${server.models.join(', ')}, default ${server.model}` : `model ${server.model}`}; metrics ${v.metrics ? 'on' : 'off'})\n`,
    );
    for (const note of server.notes) io.stderr.write(`decidekit serve: note: ${note}\n`);
    if (hasFaults(faults))
      io.stderr.write(
        `decidekit serve: fault injection on: ${set.map(([name, , x]) => `--${name} ${String(x)}`).join(' ')}\n`,
      );
    if (v.violate.length > 0)
      io.stderr.write(`decidekit serve: breaking protocol rules on purpose: ${v.violate.join(', ')}\n`);

    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    io.stderr.write('decidekit serve: shutting down (finishing the requests in flight)\n');
    await server.close();
    return interruptedExitCode(io.signal);
  },
});
