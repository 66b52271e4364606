import { userDir } from '../user-dirs.js';

/**
 * `$XDG_CACHE_HOME/decidekit`, else `~/.cache/decidekit` (apart from the loaders, so the
 * CLI can name the cache without loading them).
 */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  return userDir('cache', env);
}
