import type { Command } from '../define-command.js';

/** Every command, loaded on demand so `decidekit score` never loads the server or SQLite. */
export const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  bench: {
    summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
    load: async () => (await import('./bench.js')).command,
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
    summary: 'find the yes/no threshold saved scores support (cross-validated)',
    load: async () => (await import('./tune.js')).command,
  },
  actions: {
    summary: 'compose field decisions into actions and price the errors',
    load: async () => (await import('./actions.js')).command,
  },
  audit: {
    summary: "audit agents' answer text with a decision-model judge, and measure the judge",
    load: async () => (await import('./audit.js')).command,
  },
  serve: {
    summary: 'run the built-in System One reference server',
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
    summary: 'list, show, compare and export stored benchmark runs',
    load: async () => (await import('./runs.js')).command,
  },
};
