/**
 * Opens the store a command names: a SQLite file (`sqlite/`), or a PostgreSQL database when
 * the location is a `postgresql://` (or `postgres://`) URL (`postgres/`). The adapter is
 * chosen here, from the location, and nowhere else.
 */
import { isPostgresUrl } from '../core/store-url.js';
import { openPostgresStore } from './postgres/open-postgres-store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { OpenStoreOptions } from './open-store-options.js';
import type { Store } from './store.js';

export type { OpenStoreOptions };

/**
 * Opens (creating and migrating when needed, unless `mustExist` or `readOnly`) the store at
 * `location`: a file path, or a PostgreSQL URL.
 */
export function openStore(location: string, options: OpenStoreOptions = {}): Store {
  return isPostgresUrl(location) ? openPostgresStore(location, options) : openSqliteStore(location, options);
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
