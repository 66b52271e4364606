import { shownStoreLocation } from '../../core/store-url.js';
import { defineCommand, integer, text } from '../define-command.js';
import { interruptedExitCode } from '../io.js';
import { storePathOf } from '../locations.js';
import { storeOption, outputPathOption } from '../shared-options.js';
import { startViewServer } from '../../app/view/view-server.js';
import { writeViewBundle } from '../../app/view/write-bundle.js';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../reports/format.js';

/** Hosts only this machine reaches. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export const command = defineCommand({
  name: 'view',
  summary: 'browse the stored runs, audits and probes in a local web page',
  usage: ['view [--store S] [--port N] [--host 127.0.0.1]', 'view --bundle DIR [--store S] [RUN | RUN_A,RUN_B ...]'],
  description: `Serves the store's runs, audits and probes as web pages, read only: the list (filter by
model, label, dataset, status and date; sort by a metric; choose runs to compare), each run's
report with its trace paged and filtered on the server, comparisons of runs (paired, with
the decisions whose correctness changed), a model's runs over time, each audit and probe.
Pages are read from the store at each request, so runs still being sent fill in.

Prints the URL it listens on (127.0.0.1 unless --host says otherwise), then serves until
Ctrl+C (exit 130). The pages ask for nothing but this server: no CDN, no network.

With --bundle DIR: writes the same pages as a static site that works from file:// (for a CI
job to upload) and exits: DIR/index.html lists every record; each RUN given gets its page
(every run when none is given), each RUN_A,RUN_B its comparison; every audit and probe and
the models of the runs get theirs. A run's trace is in its page, filtered in the page. DIR must
be new, empty or a previous bundle, which is replaced whole.`,
  options: {
    store: storeOption,
    host: text('HOST', 'interface to listen on; another than this machine has no authentication', {
      default: '127.0.0.1',
      example: '127.0.0.1',
    }),
    port: integer('N', 'port; 0 picks a free one', { min: 0, max: 65535, default: 8090, example: '0' }),
    bundle: outputPathOption(
      text('DIR', 'write the pages as a static site into DIR instead of serving them', {
        example: 'view-site',
      }),
      'folder',
    ),
  },
  positionals: { min: 0, max: 1000, names: 'with --bundle: runs (RUN) and comparisons (RUN_A,RUN_B)' },
  exitCodes:
    '0 bundle written (a server exits 0 only for --help); 130 stopped by Ctrl+C; 1 cannot listen,\nunknown run or unwritable bundle; 2 usage error.',
  examples: [
    'decidekit view',
    'decidekit view --store runs.sqlite --port 0',
    'decidekit view --bundle view-site 20261130-0415 20261130-0415,20261201-0930',
  ],
  handlesSignals: true,
  async run({ values, positionals }, io) {
    const storePath = storePathOf(values.store, io);
    if (values.bundle !== undefined) {
      const written = await writeViewBundle({
        storePath,
        dir: values.bundle,
        cwd: io.cwd,
        asked: positionals,
        env: io.env,
      });
      io.stdout.write(`${written.index}\n`);
      io.stderr.write(
        `decidekit view: ${plural(written.files, 'page')} written to ${written.dir} (${plural(written.runs, 'run')}, ${plural(written.comparisons, 'comparison')}); open ${written.index}\n`,
      );
      return 0;
    }
    if (positionals.length > 0)
      throw new UsageError(
        `runs to show are given with --bundle only (the server shows every run): ${positionals.join(' ')}`,
      );
    if (!isLoopback(values.host))
      io.stderr.write(
        `decidekit view: warning: listening on ${values.host}, which other machines may reach: there is no authentication, anyone who reaches it can read every run in the store\n`,
      );
    const server = await startViewServer({ storePath, host: values.host, port: values.port, env: io.env });
    io.stdout.write(`${server.url}\n`);
    io.stderr.write(
      `decidekit view: serving ${shownStoreLocation(storePath)} read only on ${server.url} (Ctrl+C stops)\n`,
    );
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    return interruptedExitCode(io.signal);
  },
});
