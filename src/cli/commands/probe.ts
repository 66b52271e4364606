import { fitLines } from '../../reports/text-fit.js';
import { shownStoreLocation } from '../../core/store-url.js';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { planProbe, type ProbeRequest } from '../../app/probe/plan-probe.js';
import { decimal, defineCommand, flag, integer, MAX_TIMER_SECONDS, oneOf, text } from '../define-command.js';
import { colourEnabled, interruptedExitCode } from '../io.js';
import { given } from '../../core/given.js';
import { plural } from '../../reports/format.js';
import { cacheDirOf } from '../locations.js';
import {
  apiKeyOf,
  benchDatasetOf,
  benchDatasetOption,
  keptInStoreOptions,
  keptStorePathOf,
  modelServerOptions,
  outputPathOption,
} from '../shared-options.js';
import { TOOL_VERSION } from '../version.js';
import { seedOption } from '../statistics-options.js';
import { executeProbe } from '../../app/probe/execute-probe.js';
import { describeProbeStart } from '../../reports/probe/probe-describe.js';
import { renderProbeJson } from '../../reports/probe/probe-json.js';
import { renderProbeTerminal } from '../../reports/probe/probe-terminal.js';
import { isConformant } from '../../core/probe/run.js';
import { spellForCli } from '../option-flags.js';

export const command = defineCommand({
  name: 'probe',
  handlesSignals: true,
  summary: 'check a System One server: protocol conformance, determinism, order and isolation effects',
  usage:
    'probe [--base-url URL] [--model NAME] [--api-key KEY] [--dataset D] [--cases N] [--seed S]\n' +
    '                [--only conformance|robustness] [--timeout SEC] [--store PATH | --no-store] [--out DIR] [--json]',
  description: `Conformance: every wire rule of docs/system-one.md, judged on every answer (each failure
with an example request and the offending answer), the answers to seven invalid requests
(4xx with an error body), GET /health and GET /v1/models. Robustness, on a seeded sample of
--cases cases: determinism (the same request twice; again after an unrelated request),
question order reversed, question ids renamed, each question alone vs with its siblings, and
choice options reversed and shuffled: the share of answers that flip and the mean
total-variation distance, each with a 95% interval, next to the noise floor of a plain
repeat. One request at a time. Without --base-url, probes the built-in reference server.`,
  options: {
    ...modelServerOptions('embedded reference server'),
    dataset: benchDatasetOption,
    cases: integer(
      'N',
      'cases in the seeded sample (spread over every workflow; a dataset with fewer is probed whole)',
      {
        min: 1,
        max: 100_000,
        defaultText: '50',
      },
    ),
    seed: seedOption('seed of the case sample, the option shuffles and the intervals'),
    timeout: decimal('SEC', 'per-request timeout in seconds; the first 5 requests all timing out stop the probe', {
      above: 0,
      max: MAX_TIMER_SECONDS,
      defaultText: '60',
    }),
    only: oneOf('PART', ['conformance', 'robustness'], 'run one half of the probe (default both)'),
    ...keptInStoreOptions('probe'),
    out: outputPathOption(text('DIR', 'write <probe>.json, <probe>.md and <probe>.html into DIR'), 'folder'),
    json: flag('print the probe as one JSON document'),
  },
  exitCodes:
    '0 conformant (robustness findings are reported, not errors), 1 a conformance check failed or\nthe server could not be probed, 2 usage error, 130 interrupted.',
  examples: [
    'decidekit probe',
    'decidekit probe --base-url http://127.0.0.1:8080 --model laya --out reports/',
    'decidekit probe --base-url http://127.0.0.1:8084 --only robustness \\\n' + '    --cases 200 --seed 7 --json',
  ],
  async run({ values: v }, io) {
    const apiKey = apiKeyOf(v['api-key'], io);
    const dataset = await benchDatasetOf(v.dataset, io, 'probe');
    const request: ProbeRequest = {
      ...given({
        baseUrl: v['base-url'],
        model: v.model,
        apiKey,
        dataset,
        cases: v.cases,
        seed: v.seed,
        only: v.only,
        timeoutMs: v.timeout === undefined ? undefined : v.timeout * 1000,
      }),
      storePath: keptStorePathOf(v, io),
    };
    const say = (line: string) => (v.json ? undefined : io.stderr.write(`${fitLines([line], io.stderr.columns)}\n`));
    let shown = 0;
    let casesDone = 0;
    let casesTotal: number | null = null;
    const outcome = await executeProbe(planProbe(request), {
      toolVersion: TOOL_VERSION,
      cacheDir: cacheDirOf(io),
      signal: io.signal,
      now: () => performance.now(),
      ...(v.out === undefined ? {} : { outDir: resolve(io.cwd, v.out) }),
      reporter: {
        onStart: (s) => {
          casesTotal = s.cases;
          say(describeProbeStart(s));
        },
        onCase: ({ casesDone: done, casesTotal: total }) => {
          casesDone = done;
          // A line per tenth of the cases, so a slow server shows it is moving; the last line says all are done.
          const tenth = Math.floor((done * 10) / total);
          if (tenth > shown) {
            shown = tenth;
            say(`  ${done}/${total} cases`);
          }
        },
      },
    });
    if (outcome.kind === 'stopped') {
      // Ctrl+C (or SIGTERM): the requests in flight were aborted, and a probe is kept only whole.
      if (io.signal.aborted) {
        const after = casesTotal === null ? '' : ` after ${casesDone} of ${plural(casesTotal, 'case')}`;
        io.stderr.write(
          `decidekit probe: interrupted${after}; nothing was kept (a probe is saved only when it finishes)\n`,
        );
        return interruptedExitCode(io.signal);
      }
      io.stderr.write(`decidekit probe: stopped: ${spellForCli(outcome.words)}\n`);
      return 1;
    }
    const { run } = outcome;
    if (outcome.written.length > 0) say(`wrote ${outcome.written.join(', ')}`);
    io.stdout.write(
      v.json
        ? renderProbeJson(run)
        : renderProbeTerminal(run, {
            colour: colourEnabled(io.stdout, io.env),
            ...given({ width: io.stdout.columns }),
          }),
    );
    if (outcome.writeError !== null) io.stderr.write(`decidekit probe: ${outcome.writeError}\n`);
    say(
      outcome.saved
        ? `probe ${run.id} saved in ${shownStoreLocation(request.storePath!)}`
        : 'probe not saved (--no-store)',
    );
    return !isConformant(run) || outcome.writeError !== null ? 1 : 0;
  },
});
