import type { Command } from '../command.js';

export const command: Command = {
  name: 'compare',
  summary: '',
  help: 'decidekit compare: not built yet',
  async run(_argv, io) {
    io.stderr.write('decidekit compare: not built yet\n');
    return 1;
  },
};
