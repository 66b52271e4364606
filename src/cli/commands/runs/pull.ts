import { copyRunsCommand } from './copy-command.js';

export const command = copyRunsCommand({
  verb: 'pull',
  other: 'from',
  summary: "copy runs from another store (a team's PostgreSQL database) into this one",
  description: `Copies each RUN (an id or any unique prefix of one in STORE) from STORE, a PostgreSQL
URL (postgresql://user@host:port/db) or a SQLite file, into the store (--store): its id,
label, configuration, every case and decision, its status, summary and statistics. Pulling
a run that is here already, the same in every part, changes nothing; a different run under
the same id is refused, naming it. Every RUN is found before anything is copied.`,
  otherHelp: 'the store to copy from: a PostgreSQL URL or a SQLite file',
});
