import { defineCommand } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { deleteStoredRecord } from '../../../app/runs/stored-runs.js';
import { thisProcess } from '../../this-process.js';

const WHAT = { run: 'run', audit: 'answer audit', probe: 'server probe' } as const;

export const command = defineCommand({
  name: 'runs delete',
  summary: 'remove a stored run, answer audit or server probe',
  usage: 'runs delete ID [--store PATH]',
  description: `ID is a bench run id, an audit id (audit-…) or a probe id (probe-…), or any unique
prefix of one. A run goes with its cases and decisions, an audit with its verdicts. Nothing
else in the store changes. A run another bench is still sending is not deleted.`,
  options: { store: storeOption },
  positionals: ['ID'],
  exitCodes: '0 deleted, 1 unknown id, a run still being sent or unwritable store, 2 usage error.',
  examples: [
    'decidekit runs delete 20261130-0415',
    'decidekit runs delete audit-20261130-0415',
    'decidekit runs delete probe-20261130-0415',
  ],
  async run({ values, positionals: [prefix] }, io) {
    const deleted = await deleteStoredRecord(
      storePathOf(values.store, io),
      prefix!,
      { command: 'runs delete', storeArg: values.store },
      thisProcess(),
    );
    io.stdout.write(`deleted ${WHAT[deleted.kind]} ${deleted.id}\n`);
    return 0;
  },
});
