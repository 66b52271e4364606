import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$XDG_DATA_HOME/decidekit/runs.sqlite`, or `~/.local/share/decidekit/runs.sqlite` when
 * XDG_DATA_HOME is unset or relative (the XDG spec says to ignore relative values).
 * `env` is passed in by the CLI; `home` defaults to `$HOME`, then the OS's home directory.
 */
export function defaultStorePath(env: Readonly<Record<string, string | undefined>>, home?: string): string {
  const xdg = env['XDG_DATA_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'decidekit', 'runs.sqlite');
  const base = home ?? (env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir());
  return join(base, '.local', 'share', 'decidekit', 'runs.sqlite');
}
