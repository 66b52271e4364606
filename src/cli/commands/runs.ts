import { defineCommandGroup } from '../define-command.js';
import { command as check } from './runs/check.js';
import { command as compare } from './runs/compare.js';
import { command as deleteRun } from './runs/delete.js';
import { command as gate } from './runs/gate.js';
import { command as exportRun } from './runs/export.js';
import { command as list } from './runs/list.js';
import { command as pull } from './runs/pull.js';
import { command as push } from './runs/push.js';
import { command as report } from './runs/report.js';
import { command as show } from './runs/show.js';

export const command = defineCommandGroup({
  name: 'runs',
  summary: 'list, show, compare, gate, export, check and delete stored benchmark runs',
  description: `Every 'decidekit bench' run is kept in one SQLite file (WAL mode): its configuration,
provenance, summary and every decision. RUN is a run id or any unique prefix of one.
The store is --store PATH (default DECIDEKIT_STORE, else
$XDG_DATA_HOME/decidekit/runs.sqlite, else ~/.local/share/decidekit/runs.sqlite);
a team shares one PostgreSQL database with --store postgresql://user@host:port/db.

Exit codes: 0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.`,
  subcommands: [list, show, compare, gate, report, exportRun, check, deleteRun, push, pull],
  examples: [
    'decidekit runs list --limit 10',
    'decidekit runs compare 20261130-0415 20261201-0930',
    'decidekit runs gate --baseline 20261130-0415 --candidate 20261201-0930',
    'decidekit runs report 20261130-0415 --format markdown --out report.md',
    'decidekit runs export 20261130-0415 --format jsonl --out decisions.jsonl',
  ],
});
