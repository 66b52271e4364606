import { defineCommand } from '../../define-command.js';
import { storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';

export const command = defineCommand({
  name: 'runs delete',
  summary: 'remove a stored run with its cases and decisions',
  usage: 'runs delete RUN [--store PATH]',
  description: 'RUN is a run id or any unique prefix of one. Nothing else in the store changes.',
  options: { store: storeOption },
  positionals: ['RUN'],
  exitCodes: '0 deleted, 1 unknown run or unwritable store, 2 usage error.',
  examples: ['decidekit runs delete 20261130-0415'],
  async run({ values, positionals: [prefix] }, io) {
    const { deleteStoredRun, refuseOtherKind } = await import('../../../app/runs/stored-runs.js');
    const store = storePathOf(values.store, io);
    await refuseOtherKind(store, prefix!, { command: 'runs delete', storeArg: values.store });
    const id = deleteStoredRun(store, prefix!);
    io.stdout.write(`deleted run ${id}\n`);
    return 0;
  },
});
