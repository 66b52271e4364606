import { given } from '../../../core/given.js';
import { defineCommand, flag } from '../../define-command.js';
import { colourEnabled } from '../../io.js';
import { storePathOf } from '../../locations.js';
import { conventionChoiceOf, statisticsOptions } from '../../statistics-options.js';
import { storeOption } from '../../shared-options.js';
import { readStoredProbe, readStoredAudit, readRunAnalysis, runSender } from '../../../app/runs/stored-runs.js';
import { renderProbeJson } from '../../../reports/probe/probe-json.js';
import { renderProbeTerminal } from '../../../reports/probe/probe-terminal.js';
import { renderAuditJson } from '../../../reports/audit/audit-json.js';
import { renderAuditTerminal } from '../../../reports/audit/audit-terminal.js';
import { renderRunShow, renderRunShowJson } from '../../../reports/runs/runs-show.js';
import { thisProcess } from '../../this-process.js';
import { isPostgresUrl } from '../../../core/store-url.js';
import { readShardCounts } from '../../../store/queue/shard-queue.js';

export const command = defineCommand({
  name: 'runs show',
  summary: 'one run: configuration, provenance and headline results',
  usage:
    'runs show RUN [--redact] [--json] [--no-ci] [--ece-bins N] [--ece-binning B] [--ece-average A] [--seed S] [--store PATH]',
  description: `RUN is a run id or any unique prefix of one; a probe id (probe-…) shows the stored
probe, an audit id (audit-…) the stored answer audit, as 'probe' and 'audit' printed them. A run's headline numbers carry 95% intervals from a bootstrap over cases with its
stored seed; the ECE options and --seed recompute the run from its stored decisions under
other conventions.`,
  options: {
    redact: flag('show server hosts as <redacted>'),
    json: flag('one JSON document, numbers unrounded'),
    store: storeOption,
    ...statisticsOptions,
  },
  positionals: ['RUN'],
  exitCodes: '0 ok, 1 unknown run or unreadable store, 2 usage error.',
  examples: ['decidekit runs show 20261130-0415'],
  async run({ values, positionals: [prefix] }, io) {
    if (prefix!.startsWith('probe-')) {
      const probe = await readStoredProbe(storePathOf(values.store, io), prefix!);
      io.stdout.write(
        values.json ? renderProbeJson(probe) : renderProbeTerminal(probe, { colour: colourEnabled(io.stdout, io.env) }),
      );
      return 0;
    }
    if (prefix!.startsWith('audit-')) {
      const audit = await readStoredAudit(storePathOf(values.store, io), prefix!);
      io.stdout.write(
        values.json ? renderAuditJson(audit) : renderAuditTerminal(audit, { colour: colourEnabled(io.stdout, io.env) }),
      );
      return 0;
    }
    const { head, run, statistics } = readRunAnalysis(
      storePathOf(values.store, io),
      prefix!,
      { command: 'runs show', storeArg: values.store },
      conventionChoiceOf(values),
      !values['no-ci'],
    );
    // A running run: the live process sending it, if one is (else it was left by a killed one).
    const store = storePathOf(values.store, io);
    // A run sent in shards: where its shards are (the queue lives in the PostgreSQL store).
    const shards = isPostgresUrl(store) ? await readShardCounts(store, run.id) : null;
    const sentBy =
      head.status === 'running' && shards === null
        ? runSender(storePathOf(values.store, io), run.id, thisProcess())
        : null;
    io.stdout.write(
      values.json
        ? renderRunShowJson(head, run, values.redact, statistics)
        : renderRunShow(head, run, {
            colour: colourEnabled(io.stdout, io.env),
            redactHost: values.redact,
            statistics,
            sentBy,
            shards,
            store,
            ...given({ width: io.stdout.columns }),
          }),
    );
    return 0;
  },
});
