import { defineCommand, flag, integer } from '../../define-command.js';
import { colourEnabled } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';

export const command = defineCommand({
  name: 'runs list',
  summary: 'stored runs, newest first',
  usage: 'runs list [--limit N] [--redact] [--json] [--store PATH]',
  description: `Lists stored runs, newest first: id (it starts with the UTC date and time), model,
dataset, status, accuracy, fingerprint (its first 8 digits), label, cut to fit the terminal
(100 columns when not one). The footer counts every run the store holds by status. KL,
Brier, ECE and the rest: 'runs show ID' or --json. A store that does not exist yet lists no runs.`,
  options: {
    limit: integer('N', 'list only the N newest runs', { min: 1, defaultText: 'all' }),
    redact: flag('show server hosts as <redacted>'),
    json: flag('one JSON document, numbers unrounded'),
    store: storeOption,
  },
  exitCodes: '0 ok, 1 unreadable store, 2 usage error.',
  examples: ['decidekit runs list --limit 10'],
  async run({ values }, io) {
    const path = storePathOf(values.store, io);
    const { countStoredRuns, listStoredRuns, listStoredAudits, listStoredProbes } =
      await import('../../../app/runs/stored-runs.js');
    const limit = values.limit === undefined ? {} : { limit: values.limit };
    const heads = listStoredRuns(path, limit);
    const audits = await listStoredAudits(path, limit);
    const probes = await listStoredProbes(path, limit);
    const { renderRunsList, renderRunsListJson } = await import('../../../reports/runs/runs-list.js');
    const { renderAuditRunsList } = await import('../../../reports/audit/audit-runs-list.js');
    const { renderProbeRunsList, probeHeadJson } = await import('../../../reports/probe/probe-runs-list.js');
    if (values.json) {
      io.stdout.write(
        renderRunsListJson(
          heads,
          path,
          values.redact,
          audits,
          probes.map((h) => probeHeadJson(h, values.redact)),
        ),
      );
    } else {
      const colour = colourEnabled(io.stdout, io.env);
      const width = io.stdout.isTTY === true ? io.stdout.columns : undefined;
      io.stdout.write(
        renderRunsList(heads, {
          colour,
          storePath: path,
          redactHost: values.redact,
          counts: countStoredRuns(path),
          ...(width === undefined ? {} : { width }),
        }),
      );
      io.stdout.write(renderAuditRunsList(audits, { colour, ...(width === undefined ? {} : { width }) }));
      io.stdout.write(renderProbeRunsList(probes, { colour, ...(width === undefined ? {} : { width }) }));
    }
    return 0;
  },
});
