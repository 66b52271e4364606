import { copyStoredRuns } from '../../../app/runs/copy-runs.js';
import { defineCommand, text } from '../../define-command.js';
import { storeLocationOf, storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { renderCopiedRuns } from './copy-lines.js';

export const command = defineCommand({
  name: 'runs push',
  summary: "copy stored runs to another store (a team's PostgreSQL database)",
  usage: 'runs push RUN… --to STORE [--store PATH]',
  description: `Copies each RUN (an id or any unique prefix of one) from the store (--store) to
STORE, a PostgreSQL URL (postgresql://user@host:port/db) or a SQLite file: its id, label,
configuration, every case and decision, its status, summary and statistics. Pushing a run
that is there already, the same in every part, changes nothing; a different run under the
same id is refused, naming it. Every RUN is found before anything is copied.`,
  options: {
    to: text('STORE', 'the store to copy into: a PostgreSQL URL or a SQLite file', {
      required: true,
      example: 'postgresql://ann@db:5432/decidekit',
    }),
    store: storeOption,
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'RUN…' },
  exitCodes:
    '0 copied or already there, 1 unknown run, a different run under the same id or a store that cannot be used, 2 usage error.',
  examples: ['decidekit runs push 20261130-0415 --to postgresql://ann@db:5432/decidekit'],
  async run({ values, positionals }, io) {
    const to = storeLocationOf(values.to, io);
    const copied = copyStoredRuns(storePathOf(values.store, io), to, positionals, {
      command: 'runs push',
      storeArg: values.store,
    });
    io.stdout.write(renderCopiedRuns(copied, 'pushed', to));
    return 0;
  },
});
