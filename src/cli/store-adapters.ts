import type { CliIo } from './io.js';
import { isPostgresUrl } from '../core/store-url.js';
import { loadStoreAdapter } from '../store/store-adapters.js';

/**
 * Loads the PostgreSQL store adapter when a store the command may open is a PostgreSQL URL:
 * an argument (an option's value, given apart or after `=`) or DECIDEKIT_STORE, where every
 * store a command opens is named. A command on a SQLite store (the usual) never loads it.
 */
export async function loadNamedStoreAdapters(argv: readonly string[], env: CliIo['env']): Promise<void> {
  const named = [env['DECIDEKIT_STORE'] ?? '', ...argv, ...argv.map((arg) => arg.slice(arg.indexOf('=') + 1))];
  const url = named.find(isPostgresUrl);
  if (url !== undefined) await loadStoreAdapter(url);
}
