import { given } from '../../../core/given.js';
import { shownStoreLocation } from '../../../core/store-url.js';
import { defineCommand, flag, integer } from '../../define-command.js';
import { colourEnabled } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { listStore } from '../../../app/runs/stored-runs.js';
import { renderRunsList, renderRunsListJson } from '../../../reports/runs/runs-list.js';
import { renderAuditRunsList } from '../../../reports/runs/audit-runs-list.js';
import { renderProbeRunsList, probeHeadJson } from '../../../reports/runs/probe-runs-list.js';

export const command = defineCommand({
  name: 'runs list',
  summary: 'stored runs, newest first',
  usage: 'runs list [--limit N] [--redact] [--json] [--store PATH]',
  description: `Lists stored runs, newest first: id (it starts with the UTC date and time), model,
dataset, status, accuracy, fingerprint (its first 8 digits), label, cut to fit the terminal
(100 columns when not one): the fingerprint and the dataset give way before the label, and a
terminal too narrow for the columns gets one short record a run; then the stored audits and probes the same way. The footer counts
every run and audit the store holds by status, and its probes; --limit N keeps the N newest of
each kind and says how many there are. KL,
Brier, ECE and the rest: 'runs show ID' or --json. A store that does not exist yet lists no runs
(saying so when its folder does not exist either); a path no store can be made at is refused.`,
  options: {
    limit: integer('N', 'list only the N newest runs (and audits, and probes)', { min: 1, defaultText: 'all' }),
    redact: flag('show server hosts as <redacted>'),
    json: flag('one JSON document, numbers unrounded'),
    store: storeOption,
  },
  exitCodes: '0 ok, 1 unreadable store, 2 usage error.',
  examples: ['decidekit runs list --limit 10'],
  async run({ values }, io) {
    const path = storePathOf(values.store, io);
    const store = listStore(path, given({ limit: values.limit }));
    if (values.json) {
      io.stdout.write(
        renderRunsListJson(
          store.runs,
          shownStoreLocation(path),
          values.redact,
          store.audits,
          store.probes.map((h) => probeHeadJson(h, values.redact)),
        ),
      );
    } else {
      const colour = colourEnabled(io.stdout, io.env);
      const width = io.stdout.columns;
      io.stdout.write(
        renderRunsList(store.runs, {
          colour,
          storePath: shownStoreLocation(path),
          redactHost: values.redact,
          counts: store.runCounts,
          auditCounts: store.auditCounts,
          probeCount: store.probeCount,
          missingFolder: store.missingFolder,
          ...given({ width }),
        }),
      );
      const fit = given({ width });
      io.stdout.write(renderAuditRunsList(store.audits, { colour, total: store.auditCount, ...fit }));
      io.stdout.write(renderProbeRunsList(store.probes, { colour, total: store.probeCount, ...fit }));
    }
    return 0;
  },
});
