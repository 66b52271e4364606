import { join } from 'node:path';
import { userDir } from '../datasets/user-dirs.js';

/**
 * `$XDG_DATA_HOME/decidekit/runs.sqlite`, or `~/.local/share/decidekit/runs.sqlite` when
 * XDG_DATA_HOME is unset or relative (see `userDir`). `env` is passed in by the CLI; `home`
 * defaults to `$HOME`, then the OS's home directory.
 */
export function defaultStorePath(env: Readonly<Record<string, string | undefined>>, home?: string): string {
  return join(userDir('data', env, home), 'runs.sqlite');
}
