import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$XDG_CACHE_HOME/decidekit`, else `~/.cache/decidekit` (apart from the loaders, so the
 * CLI can name the cache without loading them).
 */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'decidekit');
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return join(home, '.cache', 'decidekit');
}
