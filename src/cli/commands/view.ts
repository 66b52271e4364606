import { shownStoreLocation } from '../../core/store-url.js';
import { defineCommand, integer, text } from '../define-command.js';
import { interruptedExitCode } from '../io.js';
import { storePathOf } from '../locations.js';
import { storeOption } from '../shared-options.js';
import { startViewServer } from '../../app/view/view-server.js';

/** Hosts only this machine reaches. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export const command = defineCommand({
  name: 'view',
  summary: 'browse the stored runs, audits and probes in a local web page',
  usage: 'view [--store S] [--port N] [--host 127.0.0.1]',
  description: `Serves the store's runs, audits and probes as web pages, read only: the list (filter by
model, label, dataset, status and date; sort by a metric; choose runs to compare), each run's
report with its trace paged and filtered on the server, comparisons of runs (paired, with
the decisions whose correctness changed), a model's runs over time, each audit and probe.
Pages are read from the store at each request, so runs still being sent fill in.

Prints the URL it listens on (127.0.0.1 unless --host says otherwise), then serves until
Ctrl+C (exit 130). The pages ask for nothing but this server: no CDN, no network.`,
  options: {
    store: storeOption,
    host: text('HOST', 'interface to listen on; another than this machine has no authentication', {
      default: '127.0.0.1',
      example: '127.0.0.1',
    }),
    port: integer('N', 'port; 0 picks a free one', { min: 0, max: 65535, default: 8090, example: '0' }),
  },
  exitCodes: '0 only for --help; 130 stopped by Ctrl+C; 1 cannot listen; 2 usage error.',
  examples: ['decidekit view', 'decidekit view --store runs.sqlite --port 0'],
  handlesSignals: true,
  async run({ values }, io) {
    const storePath = storePathOf(values.store, io);
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
