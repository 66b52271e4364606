/**
 * Every command by name, with the line the command list shows. A command's module is loaded
 * only when that command runs or shows its help, so `decidekit --help` loads none and each
 * command file imports what it uses at its top. Each summary here is the command's own
 * (`commands.test.ts` checks they match).
 */
import type { Command } from '../define-command.js';

export interface CommandEntry {
  /** One line for the command list; the same as the loaded command's `summary`. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** In the order `decidekit --help` lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  bench: {
    summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
    load: async () =>
      (await import('./bench.js')).createBenchCommand(
        async () => (await import('./team/bench-shards.js')).shardedBench,
      ),
  },
  live: {
    summary: 'watch a decision model while it runs (default: the built-in server)',
    load: async () => (await import('./live.js')).command,
  },
  score: {
    summary: "score one model's saved answers against a dataset",
    load: async () => (await import('./score.js')).command,
  },
  compare: {
    summary: "compare several models' saved answers in one table",
    load: async () => (await import('./compare.js')).command,
  },
  validate: {
    summary: 'check a dataset and results files against the formats',
    load: async () => (await import('./validate.js')).command,
  },
  tune: {
    summary: 'find the yes/no threshold your saved scores support (with cross-validation)',
    load: async () => (await import('./tune.js')).command,
  },
  calibrate: {
    summary: 'fit a calibration map to saved answers, checked on held-out folds',
    load: async () => (await import('./calibrate.js')).command,
  },
  actions: {
    summary: 'compose field decisions into actions and price the errors',
    load: async () => (await import('./actions.js')).command,
  },
  audit: {
    summary: "audit agents' answer text with a decision-model judge, and measure the judge",
    load: async () => (await import('./audit.js')).command,
  },
  probe: {
    summary: 'check a System One server: protocol conformance, determinism, order and isolation effects',
    load: async () => (await import('./probe.js')).command,
  },
  serve: {
    summary: 'run the built-in System One reference server (built-in models, fault injection)',
    load: async () => (await import('./serve.js')).command,
  },
  dataset: {
    summary: 'fetch Typed Decisions, show provenance, verify stored copies',
    load: async () => (await import('./dataset.js')).command,
  },
  report: {
    summary: "re-render a stored run's report (same as 'runs report')",
    load: async () => (await import('./report.js')).command,
  },
  runs: {
    summary: 'list, show, compare, gate, export, check and delete stored benchmark runs',
    load: async () => (await import('./runs.js')).command,
  },
  suite: {
    summary: 'run every model of a suite file on every dataset, rank them, compare and gate',
    load: async () => (await import('./suite.js')).command,
  },
  view: {
    summary: 'browse the stored runs, audits and probes in a local web page',
    load: async () => (await import('./view.js')).command,
  },
  worker: {
    summary: "take and send shards of runs queued by 'bench --shards N'",
    load: async () => (await import('./team/worker.js')).command,
  },
  sql: {
    summary: 'print the scoring as one SQL query over an exported decision table',
    load: async () => (await import('./sql.js')).command,
  },
};
