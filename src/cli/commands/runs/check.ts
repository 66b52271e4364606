import { defineCommand, flag } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { checkStoredRuns } from '../../../app/runs/stored-runs.js';
import { renderStoreCheck, renderStoreCheckJson } from '../../../reports/runs/runs-check.js';

export const command = defineCommand({
  name: 'runs check',
  summary: "check the store: SQLite's own check, and every run's summary recomputed from its decisions",
  usage: 'runs check [RUN] [--json] [--store PATH]',
  description: `Opens the store read-only, runs SQLite's quick check, and for every run (or RUN only)
re-scores each stored decision from its answers and gold, recomputes the run's summary and
compares both with what was saved, and checks each case's rows against the digest written
with them (any changed byte of a case, even one that moves no score; cases saved before
schema version 6 have none). A damaged store or a run that no longer reads back as it was
saved is named, with what differs.`,
  options: {
    json: flag('one JSON document'),
    store: storeOption,
  },
  positionals: { min: 0, max: 1, names: 'at most one RUN' },
  exitCodes: '0 the store and its runs read back as saved, 1 a problem found or an unreadable store, 2 usage error.',
  examples: ['decidekit runs check', 'decidekit runs check 20261130-0415 --store runs.sqlite'],
  async run({ values, positionals: [prefix] }, io) {
    const check = checkStoredRuns(storePathOf(values.store, io), prefix, {
      command: 'runs check',
      storeArg: values.store,
    });
    io.stdout.write(values.json ? renderStoreCheckJson(check) : renderStoreCheck(check, io.stdout.columns || Infinity));
    return check.integrity.length === 0 && check.runs.every((r) => r.problems.length === 0) ? 0 : 1;
  },
});
