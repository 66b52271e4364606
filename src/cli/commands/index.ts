/**
 * Every command, declared once. Declarations are cheap to import: each command loads its
 * heavy modules (the server, SQLite, undici, hyparquet) with `await import()` inside `run`,
 * so `decidekit --help` or `decidekit score` never loads them. `bench` is still loaded on
 * demand until it is declared the same way.
 */
import type { Command } from '../define-command.js';
import { command as actions } from './actions.js';
import { command as compare } from './compare.js';
import { command as dataset } from './dataset.js';
import { command as report } from './report.js';
import { command as runs } from './runs.js';
import { command as score } from './score.js';
import { command as serve } from './serve.js';
import { command as tune } from './tune.js';
import { command as validate } from './validate.js';

/** A command, or (bench, for now) its summary and a loader. */
export type CommandEntry = Command | { readonly summary: string; readonly load: () => Promise<Command> };

/** In the order `decidekit --help` lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  bench: {
    summary: 'benchmark a decision model server on Typed Decisions (default: the built-in server)',
    load: async () => (await import('./bench.js')).command,
  },
  score,
  compare,
  validate,
  tune,
  actions,
  serve,
  dataset,
  report,
  runs,
};

export async function loadCommand(entry: CommandEntry): Promise<Command> {
  return 'load' in entry ? entry.load() : entry;
}
