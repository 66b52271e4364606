import { UsageError } from '../../../core/errors.js';
import { shownStoreLocation } from '../../../core/store-url.js';
import { runsDeleteCommand } from '../../../core/command-hints.js';
import { askYesNo } from '../../ask-yes-no.js';
import { defineCommand, flag } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { deleteStoredRecord, findStoredRecord } from '../../../app/runs/stored-runs.js';
import { thisProcess } from '../../this-process.js';

const WHAT = { run: 'run', audit: 'answer audit', probe: 'server probe' } as const;
const GOES_WITH = { run: 'its cases and decisions', audit: 'its verdicts', probe: 'its checks' } as const;

export const command = defineCommand({
  name: 'runs delete',
  summary: 'remove a stored run, answer audit or server probe',
  usage: 'runs delete ID [--yes] [--store PATH]',
  description: `ID is a bench run id, an audit id (audit-…) or a probe id (probe-…), or any unique
prefix of one. A run goes with its cases and decisions, an audit with its verdicts. Nothing
else in the store changes. A run another bench is still sending is not deleted.
On a terminal it names the record and deletes it only when you answer y; without a terminal
(a script, a pipe) it deletes only with --yes.`,
  options: {
    yes: flag('delete without asking (for scripts)'),
    store: storeOption,
  },
  positionals: ['ID'],
  exitCodes:
    '0 deleted, 1 unknown id, not confirmed, a run still being sent or unwritable store, 2 usage error (no terminal to ask on and no --yes).',
  examples: [
    'decidekit runs delete 20261130-0415',
    'decidekit runs delete audit-20261130-0415 --yes',
    'decidekit runs delete probe-20261130-0415',
  ],
  async run({ values, positionals: [prefix] }, io) {
    const path = storePathOf(values.store, io);
    const askedBy = { command: 'runs delete', storeArg: values.store } as const;
    let id = prefix!;
    if (!values.yes) {
      // Named in full before anything is asked, so an unknown or ambiguous id is said as such.
      const record = findStoredRecord(path, prefix!, askedBy);
      id = record.id;
      if (io.terminal === undefined)
        throw new UsageError(
          `not deleting ${WHAT[record.kind]} ${record.id} without asking, and there is no terminal to ask on (standard input or output is not one); to delete it without asking, add --yes: ${runsDeleteCommand(record.id, values.store)}`,
        );
      const question = `Delete ${WHAT[record.kind]} ${record.id} (with ${GOES_WITH[record.kind]}) from ${shownStoreLocation(path)}?`;
      if (!(await askYesNo(io.terminal, question, io.signal))) {
        io.stderr.write(`decidekit runs delete: not confirmed; nothing was deleted\n`);
        return 1;
      }
    }
    const deleted = await deleteStoredRecord(path, id, askedBy, thisProcess());
    io.stdout.write(`deleted ${WHAT[deleted.kind]} ${deleted.id}\n`);
    return 0;
  },
});
