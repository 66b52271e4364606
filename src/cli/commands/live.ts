import { performance } from 'node:perf_hooks';
import { openLive, type LiveSession } from '../../app/live/run-live.js';
import { createLiveState, reduce, type LiveState } from '../../monitor/live-state.js';
import { decimal, defineCommand, flag, integer, MAX_TIMER_SECONDS, text } from '../define-command.js';
import { colourEnabled, interruptedExitCode, type CliIo, type TerminalPorts } from '../io.js';
import { given } from '../../core/given.js';
import { cacheDirOf } from '../locations.js';
import {
  apiKeyOf,
  benchDatasetOf,
  benchDatasetOption,
  modelServerOptions,
  outputPathOption,
} from '../shared-options.js';
import { openTerminalScreen } from '../terminal-screen.js';
import { renderPollJson, renderPollLine } from '../../monitor/poll-lines.js';
import { renderLive } from '../../monitor/render-live.js';
import { DecidekitError } from '../../core/errors.js';

/** How often the clock ticks into the monitor (banner expiry, session time). */
const TICK_MS = 250;

export const command = defineCommand({
  name: 'live',
  summary: 'watch a decision model while it runs (default: the built-in server)',
  usage: 'live [options]',
  description: `Probes a decision model one Typed Decisions case at a time (all its questions in one
request), cycling the cases in a fixed shuffled order, scores every answer against gold as
'bench' does, and shows a full-screen monitor: now, quality (rolling accuracy and ECE with
trends), by question type, confidence histogram, server (latency, tokens, and server-wide
/metrics counters). Without --base-url, starts the built-in reference server with /metrics.

Keys: q quits, Ctrl+R resets the session, Ctrl+C exits (130). When stdout is not a terminal,
prints one line per probe (--json: one JSON object per probe). A server that answers 404,
405 or 501, or where nothing listens, stops the command before the screen opens.`,
  handlesSignals: true,
  options: {
    ...modelServerOptions('embedded reference server with /metrics'),
    dataset: benchDatasetOption,
    interval: decimal('SEC', 'pause between probes in seconds', { min: 0, max: MAX_TIMER_SECONDS, default: 0.5 }),
    timeout: decimal('SEC', 'probe timeout in seconds', { above: 0, max: MAX_TIMER_SECONDS, default: 10 }),
    'metrics-url': text('URL', 'where to read llama.cpp counters', { defaultText: '<base URL>/metrics' }),
    window: integer('N', 'decisions in the rolling window (accuracy, ECE, histogram)', {
      min: 1,
      max: 100_000,
      default: 100,
    }),
    record: outputPathOption(text('FILE', "append every probe's outcome and scores as JSONL (no key)"), 'file'),
    json: flag('one JSON object per probe on stdout instead of the screen'),
  },
  exitCodes:
    '0 quit with q, 1 invalid input or a server that serves no decision model, 2 usage error, 130 Ctrl+C\n(143 by SIGTERM).',
  examples: [
    'decidekit live',
    'decidekit live --base-url http://127.0.0.1:8084 --interval 0.25',
    'decidekit live --base-url http://gpu-box:8084 --record live.jsonl --json',
  ],
  async run({ values: v }, io) {
    const apiKey = apiKeyOf(v['api-key'], io);
    const dataset = await benchDatasetOf(v.dataset, io, 'live');
    const session = await openLive(
      {
        ...given({ baseUrl: v['base-url'], model: v.model, apiKey, dataset }),
        intervalMs: v.interval * 1000,
        timeoutMs: v.timeout * 1000,
        ...given({ metricsUrl: v['metrics-url'], recordPath: v.record }),
      },
      { cacheDir: cacheDirOf(io), now: () => performance.now() },
    );
    try {
      if (io.terminal !== undefined && !v.json) return await watchOnScreen(session, io, io.terminal, v.window);
      return await watchAsLines(session, io, { json: v.json, window: v.window });
    } finally {
      await session.close();
    }
  },
});

async function initialState(session: LiveSession, size: { columns: number; rows: number }, window: number) {
  return createLiveState(session.info, { atMs: performance.now(), size, settings: { windowSize: window } });
}

/** Piped or --json: one line per poll until Ctrl+C (exit 130) or SIGTERM (143). */
async function watchAsLines(session: LiveSession, io: CliIo, options: { json: boolean; window: number }) {
  let state = await initialState(session, { columns: 80, rows: 24 }, options.window);
  if (!options.json)
    io.stderr.write(
      `decidekit live: probing ${session.info.target} every ${session.info.intervalMs / 1000} s (Ctrl+C stops)\n`,
    );
  await session.run(io.signal, {
    onPoll: (poll) => {
      state = reduce(state, poll.event);
      io.stdout.write(`${options.json ? renderPollJson(state, poll.atIso) : renderPollLine(state)}\n`);
    },
    onMetrics: (event) => (state = reduce(state, event)),
  });
  return interruptedExitCode(io.signal);
}

/** The full screen: redrawn on every event (at most ~10 frames a second) until q or Ctrl+C. */
async function watchOnScreen(session: LiveSession, io: CliIo, terminal: TerminalPorts, window: number) {
  const colour = colourEnabled(io.stdout, io.env);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  if (io.signal.aborted) stop.abort();
  io.signal.addEventListener('abort', onSignal, { once: true });
  let state: LiveState = await initialState(
    session,
    { columns: terminal.output.columns || 80, rows: terminal.output.rows || 24 },
    window,
  );
  let failure: { error: unknown } | null = null;
  const screen = openTerminalScreen(terminal, {
    frame: (size) => renderLive(state, size, { colour }),
    onKey: (key) => {
      state = reduce(state, { type: 'key', key, atMs: performance.now() });
      if (state.exit !== null) stop.abort();
      else screen.invalidate();
    },
    onResize: (size) => {
      state = reduce(state, { type: 'resize', size, atMs: performance.now() });
      screen.invalidate();
    },
    onError: (error) => {
      failure ??= { error };
      stop.abort();
    },
  });
  const ticker = setInterval(() => {
    state = reduce(state, { type: 'tick', atMs: performance.now() });
    screen.invalidate();
  }, TICK_MS);
  try {
    screen.invalidate();
    await session.run(stop.signal, {
      onPoll: (poll) => {
        state = reduce(state, poll.event);
        screen.invalidate();
      },
      onMetrics: (event) => {
        state = reduce(state, event);
        screen.invalidate();
      },
    });
  } finally {
    clearInterval(ticker);
    screen.close();
    io.signal.removeEventListener('abort', onSignal);
  }
  // The terminal is restored: now the error can be reported like any other.
  if (failure !== null) {
    const { error } = failure as { error: unknown };
    throw error instanceof DecidekitError
      ? error
      : new DecidekitError(
          'terminal_failed',
          `the screen failed: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
  }
  return state.exit ?? interruptedExitCode(io.signal);
}
