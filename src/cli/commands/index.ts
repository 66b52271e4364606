/**
 * Every command, declared once. Declarations are cheap to import: each command loads its
 * heavy modules (the server, SQLite, undici, hyparquet) with `await import()` inside `run`,
 * so `decidekit --help` or `decidekit score` never loads them (`commands.test.ts` checks).
 */
import type { Command } from '../define-command.js';
import { command as actions } from './actions.js';
import { command as audit } from './audit.js';
import { command as bench } from './bench.js';
import { command as compare } from './compare.js';
import { command as dataset } from './dataset.js';
import { command as live } from './live.js';
import { command as probe } from './probe.js';
import { command as report } from './report.js';
import { command as runs } from './runs.js';
import { command as score } from './score.js';
import { command as serve } from './serve.js';
import { command as sql } from './sql.js';
import { command as tune } from './tune.js';
import { command as validate } from './validate.js';

/** In the order `decidekit --help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  bench,
  live,
  score,
  compare,
  validate,
  tune,
  actions,
  audit,
  probe,
  serve,
  dataset,
  report,
  runs,
  sql,
};
