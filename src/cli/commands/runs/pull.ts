import { copyStoredRuns } from '../../../app/runs/copy-runs.js';
import { defineCommand, text } from '../../define-command.js';
import { storeLocationOf, storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { renderCopiedRuns } from './copy-lines.js';

export const command = defineCommand({
  name: 'runs pull',
  summary: "copy runs from another store (a team's PostgreSQL database) into this one",
  usage: 'runs pull RUN… --from STORE [--store PATH]',
  description: `Copies each RUN (an id or any unique prefix of one in STORE) from STORE, a PostgreSQL
URL (postgresql://user@host:port/db) or a SQLite file, into the store (--store): its id,
label, configuration, every case and decision, its status, summary and statistics. Pulling
a run that is here already, the same in every part, changes nothing; a different run under
the same id is refused, naming it. Every RUN is found before anything is copied.`,
  options: {
    from: text('STORE', 'the store to copy from: a PostgreSQL URL or a SQLite file', {
      required: true,
      example: 'postgresql://ann@db:5432/decidekit',
    }),
    store: storeOption,
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'RUN…' },
  exitCodes:
    '0 copied or already there, 1 unknown run, a different run under the same id or a store that cannot be used, 2 usage error.',
  examples: ['decidekit runs pull 20261130-0415 --from postgresql://ann@db:5432/decidekit'],
  async run({ values, positionals }, io) {
    const to = storePathOf(values.store, io);
    const from = storeLocationOf(values.from, io);
    const copied = copyStoredRuns(from, to, positionals, { command: 'runs pull', storeArg: values.from });
    io.stdout.write(renderCopiedRuns(copied, 'pulled', to));
    return 0;
  },
});
