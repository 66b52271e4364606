/**
 * Opens the store a command names. Every store is a SQLite file today (`sqlite/`); an
 * adapter for another kind of store is chosen here, from its location, and nowhere else.
 */
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { OpenStoreOptions } from './open-store-options.js';
import type { Store } from './store.js';

export type { OpenStoreOptions };

/** Opens (creating and migrating when needed, unless `mustExist` or `readOnly`) the store at `path`. */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  return openSqliteStore(path, options);
}
