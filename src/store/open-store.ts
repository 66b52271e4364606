/**
 * Opens the store a command names: a SQLite file (`sqlite/`), or a PostgreSQL database when
 * the location is a `postgresql://` (or `postgres://`) URL (`postgres/`). The adapter is
 * chosen here, from the location, and nowhere else; the PostgreSQL adapter is loaded only
 * for a PostgreSQL store (`store-adapters.ts`).
 */
import { DecidekitError } from '../core/errors.js';
import { isPostgresUrl, shownStoreUrl } from '../core/store-url.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import { postgresAdapter } from './store-adapters.js';
import type { OpenStoreOptions } from './open-store-options.js';
import type { Store } from './store.js';

export type { OpenStoreOptions };

/**
 * Opens (creating and migrating when needed, unless `mustExist` or `readOnly`) the store at
 * `location`: a file path, or a PostgreSQL URL (its adapter loaded first: `loadStoreAdapter`).
 */
export function openStore(location: string, options: OpenStoreOptions = {}): Store {
  if (!isPostgresUrl(location)) return openSqliteStore(location, options);
  const openPostgres = postgresAdapter();
  if (openPostgres === null) {
    const path = shownStoreUrl(location);
    // A caller's slip, never a user's: the CLI loads the adapter of every store it is given.
    throw new DecidekitError(
      'store_unreadable',
      `cannot open the run store ${path}: the PostgreSQL adapter is not loaded (await loadStoreAdapter(url) before openStore, or import openStore from the library's entry, which loads it)`,
      { context: { path } },
    );
  }
  return openPostgres(location, options);
}

/** The store at `location`, opened for one use and closed after it, whatever `use` does. */
export function withStore<T>(location: string, options: OpenStoreOptions, use: (store: Store) => T): T {
  const store = openStore(location, options);
  try {
    return use(store);
  } finally {
    store.close();
  }
}
