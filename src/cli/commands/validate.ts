import type { Command } from '../command.js';

export const command: Command = {
  name: 'validate',
  summary: '',
  help: 'decidekit validate: not built yet',
  async run(_argv, io) {
    io.stderr.write('decidekit validate: not built yet\n');
    return 1;
  },
};
