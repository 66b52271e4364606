import type { Command } from '../command.js';

export const command: Command = {
  name: 'score',
  summary: '',
  help: 'decidekit score: not built yet',
  async run(_argv, io) {
    io.stderr.write('decidekit score: not built yet\n');
    return 1;
  },
};
