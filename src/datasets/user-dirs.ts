import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Which XDG base directory: `data` for what must survive (the run store), `cache` for what can be fetched again. */
export type UserDirKind = 'data' | 'cache';

const XDG: Record<UserDirKind, { readonly variable: string; readonly fallback: readonly string[] }> = {
  data: { variable: 'XDG_DATA_HOME', fallback: ['.local', 'share'] },
  cache: { variable: 'XDG_CACHE_HOME', fallback: ['.cache'] },
};

/**
 * decidekit's folder under an XDG base directory: `$XDG_DATA_HOME/decidekit` or
 * `$XDG_CACHE_HOME/decidekit`, else `~/.local/share/decidekit` or `~/.cache/decidekit` when
 * the variable is unset, empty or relative (the XDG spec says to ignore relative values).
 * `env` is passed in by the CLI; `home` defaults to `$HOME`, then the OS's home directory.
 */
export function userDir(kind: UserDirKind, env: Readonly<Record<string, string | undefined>>, home?: string): string {
  const { variable, fallback } = XDG[kind];
  const xdg = env[variable];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'decidekit');
  const base = home ?? (env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir());
  return join(base, ...fallback, 'decidekit');
}
