import { copyRunsCommand } from './copy-command.js';

export const command = copyRunsCommand({
  verb: 'push',
  other: 'to',
  summary: "copy stored runs to another store (a team's PostgreSQL database)",
  description: `Copies each RUN (an id or any unique prefix of one) from the store (--store) to
STORE, a PostgreSQL URL (postgresql://user@host:port/db) or a SQLite file: its id, label,
configuration, every case and decision, its status, summary and statistics. Pushing a run
that is there already, the same in every part, changes nothing; a different run under the
same id is refused, naming it. Every RUN is found before anything is copied.`,
  otherHelp: 'the store to copy into: a PostgreSQL URL or a SQLite file',
});
