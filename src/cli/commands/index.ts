import type { Command } from '../command.js';

/** Every command, loaded on demand so `decidekit score` never loads the server or SQLite. */
export const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  score: { summary: 'score one model\'s saved answers against a dataset', load: async () => (await import('./score.js')).command },
  compare: { summary: 'compare several models\' saved answers in one table', load: async () => (await import('./compare.js')).command },
  validate: { summary: 'check a dataset and results files against the formats', load: async () => (await import('./validate.js')).command },
};
