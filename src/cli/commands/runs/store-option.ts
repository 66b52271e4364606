import { resolve } from 'node:path';
import { defaultStorePath } from '../../../store/default-store-path.js';
import { text } from '../../define-command.js';
import type { CliIo } from '../../io.js';

/** `--store PATH`, shared by every subcommand that reads stored runs. */
export const storeOption = text('PATH', 'the run store', {
  defaultText: '$XDG_DATA_HOME/decidekit/runs.sqlite, else\n~/.local/share/decidekit/runs.sqlite',
  example: 'runs.sqlite',
});

export function storePathOf(value: string | undefined, io: CliIo): string {
  return value === undefined ? defaultStorePath(io.env) : resolve(io.cwd, value);
}
