import { defineCommandGroup, type SubcommandEntry } from '../define-command.js';

/**
 * Each subcommand's module is loaded only when it runs or shows its help: `runs report`
 * loads the report's code and not the store sync's, compare's statistics or the HTML pages
 * of the others. Each summary here is the subcommand's own (`commands.test.ts` checks).
 */
const SUBCOMMANDS: readonly SubcommandEntry[] = [
  {
    word: 'list',
    summary: 'stored runs, newest first',
    load: async () => (await import('./runs/list.js')).command,
  },
  {
    word: 'show',
    summary: 'one run: configuration, provenance and headline results',
    load: async () => (await import('./runs/show.js')).command,
  },
  {
    word: 'compare',
    summary: 'run B against run A, paired (differences, intervals, verdicts); 3+ runs: a leaderboard',
    load: async () => (await import('./runs/compare.js')).command,
  },
  {
    word: 'gate',
    summary: 'for CI: exit 1 when a candidate run is worse than a baseline beyond noise',
    load: async () => (await import('./runs/gate.js')).command,
  },
  {
    word: 'report',
    summary: "re-render a stored run's report as bench printed or wrote it",
    load: async () => (await import('./runs/report.js')).command,
  },
  {
    word: 'export',
    summary: 'the per-decision table as JSONL, CSV or Parquet, or a leaderboard entry (eval-results)',
    load: async () => (await import('./runs/export.js')).command,
  },
  {
    word: 'check',
    summary: "check the store: SQLite's own check, and every run's summary recomputed from its decisions",
    load: async () => (await import('./runs/check.js')).command,
  },
  {
    word: 'delete',
    summary: 'remove a stored run, answer audit or server probe',
    load: async () => (await import('./runs/delete.js')).command,
  },
  {
    word: 'push',
    summary: "copy stored runs to another store (a team's PostgreSQL database)",
    load: async () => (await import('./runs/push.js')).command,
  },
  {
    word: 'pull',
    summary: "copy runs from another store (a team's PostgreSQL database) into this one",
    load: async () => (await import('./runs/pull.js')).command,
  },
];

export const command = defineCommandGroup({
  name: 'runs',
  summary: 'list, show, compare, gate, export, check and delete stored benchmark runs',
  description: `Every 'decidekit bench' run is kept in one SQLite file (WAL mode): its configuration,
provenance, summary and every decision. RUN is a run id or any unique prefix of one.
The store is --store PATH (default DECIDEKIT_STORE, else
$XDG_DATA_HOME/decidekit/runs.sqlite, else ~/.local/share/decidekit/runs.sqlite);
a team shares one PostgreSQL database with --store postgresql://user@host:port/db.

Exit codes: 0 ok, 1 unknown run, unreadable store or runs not comparable, 2 usage error.`,
  subcommands: SUBCOMMANDS,
  examples: [
    'decidekit runs list --limit 10',
    'decidekit runs compare 20261130-0415 20261201-0930',
    'decidekit runs gate --baseline 20261130-0415 --candidate 20261201-0930',
    'decidekit runs report 20261130-0415 --format markdown --out report.md',
    'decidekit runs export 20261130-0415 --format jsonl --out decisions.jsonl',
  ],
});
