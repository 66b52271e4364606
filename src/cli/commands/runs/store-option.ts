import { text } from '../../define-command.js';

/** `--store PATH`, shared by every subcommand that reads stored runs. */
export const storeOption = text('PATH', 'the run store', {
  defaultText: '$XDG_DATA_HOME/decidekit/runs.sqlite, else\n~/.local/share/decidekit/runs.sqlite',
  example: 'runs.sqlite',
});
